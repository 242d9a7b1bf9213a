// One phase of bench/transfer with our typed client (the package's entry, built by `npm run build`), in its own process:
//   export <url>                 schedule the export of bench/issues and wait until it is finished
//   download <url> <file>        stream the archive to <file>
//   import <url> <file> <path>   upload <file> as a new project <path> and wait until it is finished
// Prints `<ms> <maxRSS KiB> <detail>` (detail: archive bytes, or the import's failed relations).
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { createClient } from 'gitlab-actions'

const [phase, url, file, path] = process.argv.slice(2)
const client = createClient({ baseUrl: url, token: 'glpat-root-token', timeoutMs: 30 * 60_000 })
const started = performance.now()
let detail = ''
if (phase === 'export') {
  await client.projectExports.schedule('bench/issues')
  for (;;) {
    const s = await client.projectExports.status('bench/issues')
    if (s.export_status === 'finished') break
    if (s.export_status === 'failed' || s.export_status === 'none')
      throw new Error(`export ${s.export_status}`)
    await sleep(50)
  }
} else if (phase === 'download') {
  const saved = await client.projectExports.downloadTo('bench/issues', file)
  detail = String(saved.size)
} else if (phase === 'import') {
  const started = await client.projectImports.fromFile(file, { path, namespace: 'bench' })
  for (;;) {
    const s = await client.projectImports.status(started.id)
    if (s.import_status === 'finished') {
      detail = String(s.failed_relations?.length ?? 0)
      break
    }
    if (s.import_status === 'failed') throw new Error(`import failed: ${s.import_error}`)
    await sleep(50)
  }
} else throw new Error(`unknown phase ${phase}`)
const ms = performance.now() - started
process.stdout.write(`${ms.toFixed(0)} ${process.resourceUsage().maxRSS} ${detail}\n`)
process.exit(0)
