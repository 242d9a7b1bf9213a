/*
 * Generates `actions/<name>/action.yml`, the root `action.yml` and the inputs/outputs tables of
 * docs/actions.md from the catalog (as actions/checkout's generate-docs does). `npm run docs` writes
 * them; test/actions/action-files.test.ts fails when a committed file differs from what this makes.
 * The tables are made from the action.yml files' text, so they show what users get.
 */
import { format, resolveConfig } from 'prettier'
import { parse, stringify } from 'yaml'
import { catalog, COMMANDS, type ActionEntry, type Step } from './catalog.js'
import { inputVariable, requiredInWorkflow } from './inputs.js'

const header = (name: string) =>
  `# Generated from src/actions/${name}/inputs.ts by \`npm run docs\`; do not edit by hand.\n`

/**
 * An input's action.yml default: the table's default, except for inputs with an environment
 * fallback (the code applies `env` first and the default after, so action.yml must pass '' for them).
 */
const ymlDefault = (spec: ActionEntry['inputs'][string]) => (spec.env?.length ? undefined : spec.default)

function inputsYml(entry: ActionEntry) {
  return Object.fromEntries(
    Object.entries(entry.inputs).map(([name, spec]) => {
      const dflt = ymlDefault(spec)
      return [
        name,
        {
          description: spec.description,
          required: requiredInWorkflow(spec),
          ...(dflt !== undefined ? { default: dflt } : {}),
        },
      ]
    }),
  )
}

/**
 * The shell line that runs a bundle: actions/node.sh finds a Node >= 24 (PATH, else the runner's own
 * node24, else one clear error) and execs it, so the runner's SIGINT/SIGTERM reach the action.
 */
export const runLine = (nodeSh: string, script: string) => `exec bash "${nodeSh}" "${script}"`

const nodeStep = (script: string, env: Record<string, string>): Step => ({
  id: 'run',
  shell: 'bash',
  run: runLine('${{ github.action_path }}/../node.sh', script),
  env,
})

/**
 * A default the root action.yml can carry too: a `${{ github.* }}` expression (sync-issues'
 * `github-token`) means the same whichever command runs, and without it the root action would
 * run without the workflow's token.
 */
const contextDefault = (dflt: string | undefined) => (dflt?.startsWith('${{ github.') ? dflt : undefined)

/** The action.yml of one action, as text. */
export function actionYml(entry: ActionEntry): string {
  const env = Object.fromEntries(
    Object.keys(entry.inputs).map((n) => [inputVariable(n), `\${{ inputs.${n} }}`]),
  )
  const doc = {
    name: `GitLab ${entry.name}`,
    description: entry.description,
    author: 'gitlab-actions',
    inputs: inputsYml(entry),
    outputs: Object.fromEntries(
      Object.entries(entry.outputs).map(([name, description]) => [
        name,
        { description, value: `\${{ steps.run.outputs.${name} }}` },
      ]),
    ),
    runs: {
      using: 'composite',
      steps: [
        ...(entry.before ?? []),
        nodeStep(`\${{ github.action_path }}/../../dist/${entry.name}/index.js`, env),
        ...(entry.after ?? []),
      ],
    },
  }
  return header(entry.name) + stringify(doc, { lineWidth: 0 })
}

/** The root action.yml: `command` picks the action; every input of every action is accepted. */
export function rootActionYml(entries: ActionEntry[] = catalog): string {
  const inputs: Record<string, { description: string; required: boolean; default?: string }> = {
    command: { description: `The action to run: ${COMMANDS.join(', ')}`, required: true },
  }
  const outputs: Record<string, { description: string; value: string }> = {}
  for (const entry of entries) {
    for (const [name, spec] of Object.entries(entry.inputs)) {
      const owners = entries.filter((e) => name in e.inputs).map((e) => e.name)
      const shared = contextDefault(spec.default)
      inputs[name] ??= {
        description: `${owners.join(', ')}: see actions/${owners[0]}/action.yml${spec.default && !spec.env && !shared ? ` (default there: ${spec.default})` : ''}`,
        required: false,
        ...(shared ? { default: shared } : {}),
      }
    }
    for (const [name, description] of Object.entries(entry.outputs))
      outputs[name] ??= {
        description: `${entry.name}: ${description}`,
        value: `\${{ steps.run.outputs.${name} }}`,
      }
  }
  const env: Record<string, string> = { GITLAB_ACTIONS_COMMAND: '${{ inputs.command }}' }
  for (const name of Object.keys(inputs))
    if (name !== 'command') env[inputVariable(name)] = `\${{ inputs.${name} }}`
  const when = (name: string) => (step: Step) => ({
    ...step,
    if: `inputs.command == '${name}'${step.if ? ` && (${String(step.if).replace(/^\$\{\{\s*|\s*\}\}$/g, '')})` : ''}`,
  })
  const doc = {
    name: 'GitLab actions',
    description: `Drive GitLab from GitHub Actions: ${COMMANDS.join(', ')} (the 'command' input picks one)`,
    author: 'gitlab-actions',
    inputs,
    outputs,
    runs: {
      using: 'composite',
      steps: [
        ...entries.flatMap((e) => (e.before ?? []).map(when(e.name))),
        {
          id: 'run',
          shell: 'bash',
          run: [
            'case "$GITLAB_ACTIONS_COMMAND" in',
            `  ${COMMANDS.join('|')}) ;;`,
            `  *) echo "::error::Input 'command' must be one of ${COMMANDS.join(', ')}, got '$GITLAB_ACTIONS_COMMAND'"; exit 1 ;;`,
            'esac',
            runLine(
              '$GITHUB_ACTION_PATH/actions/node.sh',
              '$GITHUB_ACTION_PATH/dist/$GITLAB_ACTIONS_COMMAND/index.js',
            ),
            '',
          ].join('\n'),
          env,
        },
        ...entries.flatMap((e) => (e.after ?? []).map(when(e.name))),
      ],
    },
  }
  return (
    '# Generated from src/actions/catalog.ts by `npm run docs`; do not edit by hand.\n' +
    stringify(doc, { lineWidth: 0 })
  )
}

const cell = (text: unknown) =>
  String(text ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\r?\n/g, ' ')

/** The inputs and outputs tables of one action (docs/actions.md), made from its action.yml text. */
export function actionTables(name: string, yml: string): string {
  const doc = parse(yml) as {
    inputs: Record<string, { description: string; required?: boolean; default?: string }>
    outputs: Record<string, { description: string }>
  }
  const lines = [
    `<!-- generated from actions/${name}/action.yml by \`npm run docs\` -->`,
    '',
    '| input | required | default | description |',
    '| --- | --- | --- | --- |',
    ...Object.entries(doc.inputs).map(
      ([n, i]) =>
        `| \`${n}\` | ${i.required ? 'yes' : 'no'} | ${i.default !== undefined ? `\`${cell(i.default)}\`` : ''} | ${cell(i.description)} |`,
    ),
    '',
    '| output | description |',
    '| --- | --- |',
    ...Object.entries(doc.outputs).map(([n, o]) => `| \`${n}\` | ${cell(o.description)} |`),
  ]
  return lines.join('\n')
}

const START = (name: string) => `<!-- action-docs:${name}:start -->`
const END = (name: string) => `<!-- action-docs:${name}:end -->`

/** Markdown text with each action's marked block replaced by fresh tables; blocks absent stay absent. */
export function updateTables(doc: string, ymls: Record<string, string>): string {
  let out = doc
  for (const [name, yml] of Object.entries(ymls)) {
    const start = out.indexOf(START(name))
    const end = out.indexOf(END(name))
    if (start < 0 || end < start) continue
    out = `${out.slice(0, start + START(name).length)}\n${actionTables(name, yml)}\n${out.slice(end)}`
  }
  return out
}

/** YAML as the repository's Prettier settings print it (`npm run lint` checks every file). */
async function pretty(yml: string, at: string): Promise<string> {
  const config = (await resolveConfig(at)) ?? {}
  return format(yml, { ...config, parser: 'yaml', filepath: at })
}

/**
 * Every generated file: path relative to `root` -> expected text. `actionsDoc` is the current text
 * of docs/actions.md; only its marked blocks change.
 */
export async function generatedFiles(root: string, actionsDoc: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {
    'action.yml': await pretty(rootActionYml(), `${root}/action.yml`),
  }
  const ymls: Record<string, string> = {}
  for (const entry of catalog) {
    const path = `actions/${entry.name}/action.yml`
    files[path] = ymls[entry.name] = await pretty(actionYml(entry), `${root}/${path}`)
  }
  files['docs/actions.md'] = updateTables(actionsDoc, ymls)
  return files
}
