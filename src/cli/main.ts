import { actionCommands, runActionCommand, runners } from './actions.js'
import { serve, serveHelp } from './serve.js'

const usage = `Usage: gitlab-actions <command> [options]

Commands:
  serve              run the GitLab-compatible reference server
  demo               walk through the API against an in-process reference server
${actionCommands()
  .map((a) => `  ${a.name.padEnd(18)} ${a.description}`)
  .join('\n')}

Run 'gitlab-actions <command> --help' for a command's options.
`

/** CLI entry: returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  if (command !== undefined && command in runners) return runActionCommand(command, rest)
  switch (command) {
    case 'serve':
      return serve(rest)
    case 'demo': {
      const { demo } = await import('./demo.js')
      return demo(rest)
    }
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      process.stdout.write(usage)
      return command === undefined ? 1 : 0
    default:
      process.stderr.write(`Unknown command '${command}'.\n\n${usage}`)
      return 1
  }
}

export { serveHelp }
