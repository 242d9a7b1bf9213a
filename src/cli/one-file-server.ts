/*
 * Entry of dist/serve/index.js, the one-file server: `node index.js serve [options]` on a bare
 * Node 24, no node_modules (scripts/bundle.mjs inlines every dependency). Only `serve` and
 * `--version`: neither the client nor the actions are in it.
 */
import { serve, serveHelp } from './serve.js'
import { VERSION } from './version.js'

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  if (command === 'serve') return serve(rest)
  if (command === '--version' || command === '-v') {
    process.stdout.write(`${VERSION}\n`)
    return 0
  }
  const help = command === '--help' || command === '-h'
  ;(help ? process.stdout : process.stderr).write(
    `${help ? '' : `Unknown command '${command ?? ''}': this file runs only 'serve'.\n\n`}${serveHelp.replace('gitlab-actions serve', 'node index.js serve')}`,
  )
  return help ? 0 : 1
}

run(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`)
    process.exitCode = 1
  },
)
