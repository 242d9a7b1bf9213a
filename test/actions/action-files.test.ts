import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { catalog } from '../../src/actions/catalog.js'
import { requiredInWorkflow } from '../../src/actions/inputs.js'
import { ROOT } from '../support/action-run.js'

type Yml = {
  inputs: Record<string, { required: boolean; default?: string }>
  outputs: Record<string, { value: string }>
  runs: { using: string; steps: { id?: string; run?: string; env?: Record<string, string> }[] }
}
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')

describe('action.yml files and the tables of docs/actions.md', () => {
  it('are what `npm run docs` generates from the input tables (run it after changing inputs)', () => {
    // A child process: Prettier (which formats the YAML) needs ESM loading that Jest's runtime lacks.
    const check = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/docs.ts', '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
    expect(check.stderr).toBe('')
    expect(check.status).toBe(0)
  })

  it.each(catalog.map((a) => [a.name, a] as const))(
    '%s: inputs equal the table, each passed as INPUT_<NAME>, run through actions/node.sh',
    (name, entry) => {
      const yml = parse(read(`actions/${name}/action.yml`)) as Yml
      expect(Object.keys(yml.inputs)).toEqual(Object.keys(entry.inputs))
      expect(Object.keys(yml.outputs)).toEqual(Object.keys(entry.outputs))
      for (const [input, spec] of Object.entries(entry.inputs))
        expect([input, yml.inputs[input]?.required]).toEqual([input, requiredInWorkflow(spec)])
      const step = yml.runs.steps.find((s) => s.id === 'run')
      expect(yml.runs.using).toBe('composite')
      expect(step?.run).toBe(
        `exec bash "\${{ github.action_path }}/../node.sh" "\${{ github.action_path }}/../../dist/${name}/index.js"`,
      )
      expect(step?.env).toEqual(
        Object.fromEntries(
          Object.keys(entry.inputs).map((i) => [`INPUT_${i.toUpperCase()}`, `\${{ inputs.${i} }}`]),
        ),
      )
    },
  )

  it("sync-issues' repository is optional in a workflow (the runner sets $GITHUB_REPOSITORY), its token is not", () => {
    const yml = parse(read('actions/sync-issues/action.yml')) as Yml
    expect([yml.inputs.repository?.required, yml.inputs.token?.required]).toEqual([false, true])
    expect(read('docs/actions.md')).toContain('| `repository` | no |  |')
  })

  it('the root action.yml accepts every input of every action and dispatches on command', () => {
    const yml = parse(read('action.yml')) as Yml
    for (const entry of catalog)
      for (const input of Object.keys(entry.inputs)) expect(yml.inputs).toHaveProperty([input])
    const step = yml.runs.steps.find((s) => s.id === 'run')
    expect(step?.run).toContain(
      'exec bash "$GITHUB_ACTION_PATH/actions/node.sh" "$GITHUB_ACTION_PATH/dist/$GITLAB_ACTIONS_COMMAND/index.js"',
    )
    expect(step?.run).toContain('trigger-pipeline|export-project|import-project|sync-issues)')
  })
})
