import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runActionBundle, type BundleRun } from './run-bundle.js'

const TRIGGER = 'glptt-89afb65ccbd38a36957b51b04b10e21005c7c8dc' // examples/seed.yaml: acme/widgets, deploy
const ALICE = 'glpat-alice-token'

/**
 * The demo's second half: each action's committed bundle, run as a GitHub runner runs
 * it, against the in-process server: trigger a pipeline and wait, export a project and download
 * it, import the archive as a new project. Returns false when any step fails.
 */
export async function demoActions(
  baseUrl: string,
  step: (text: string) => void,
  say: (text: string) => void,
): Promise<boolean> {
  const report: [string, BundleRun][] = []
  const show = (line: string) => say(`  | ${line.replace(/^::(error|warning)::/, '$1: ')}`)
  const outputs = (run: BundleRun) => {
    for (const [k, v] of Object.entries(run.outputs)) say(`  output ${k} = ${v}`)
    say(`  job summary: ${run.summary.length} bytes of HTML; exit code ${run.code}`)
  }
  const dir = await mkdtemp(join(tmpdir(), 'gitlab-actions-demo-'))
  try {
    step(
      'Action trigger-pipeline: start the deploy pipeline of acme/widgets and wait for it (dist/trigger-pipeline)',
    )
    const trigger = await runActionBundle(
      'trigger-pipeline',
      {
        'gitlab-url': baseUrl,
        project: 'acme/widgets',
        ref: 'main',
        token: TRIGGER,
        'access-token': ALICE,
        variables: 'DEPLOY_ENV=staging',
        'poll-interval': '1s',
        timeout: '2m',
      },
      show,
    )
    outputs(trigger)
    report.push(['trigger-pipeline', trigger])

    step('Action export-project: export acme/widgets and download the archive (dist/export-project)')
    const exported = await runActionBundle(
      'export-project',
      {
        'gitlab-url': baseUrl,
        token: ALICE,
        project: 'acme/widgets',
        'download-dir': dir,
        'poll-interval': '200ms',
      },
      show,
    )
    outputs(exported)
    report.push(['export-project', exported])

    step('Action import-project: import that archive as alice/widgets-restored (dist/import-project)')
    const imported = await runActionBundle(
      'import-project',
      {
        'gitlab-url': baseUrl,
        token: ALICE,
        archive: exported.outputs['archive-path'] ?? '',
        path: 'widgets-restored',
        'override-params': 'description: Restored by the import-project demo',
        'poll-interval': '200ms',
      },
      show,
    )
    outputs(imported)
    report.push(['import-project', imported])

    step('Report')
    const key: Record<string, string> = {
      'trigger-pipeline': 'status',
      'export-project': 'export-status',
      'import-project': 'import-status',
    }
    for (const [name, run] of report)
      say(
        `${run.code === 0 ? 'ok  ' : 'FAIL'} ${name.padEnd(17)} ${key[name]}=${run.outputs[key[name] as string] ?? '-'}`,
      )
    return report.every(([, run]) => run.code === 0)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
