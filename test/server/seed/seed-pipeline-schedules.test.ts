/*
 * A seed's `pipeline_schedules:` on projects: saved as the API saves them (the full ref, `next_run_at`
 * from the clock, variables sealed), refused with the API's words, and run when the clock moves past them.
 */
import { parseSeed, SeedError } from '../../../src/server/seed/parse.js'
import { startServer } from '../../support/server.js'

const ROOT = 'glpat-root-token'
const seed = `
users:
  - { username: root, admin: true, token: ${ROOT} }
  - { username: mark }
groups:
  - { path: acme, members: { mark: maintainer } }
projects:
  - path: acme/app
    branches: [develop]
    tags: [v1]
    pipeline_schedules:
      - { description: nightly, ref: main, cron: "0 1 * * *", owner: mark, variables: { NIGHTLY: "yes" }, inputs: { target: prod, replicas: 2, zones: [a, b] } }
      - { description: release, ref: v1, cron: "0 9 * * 1", cron_timezone: Europe/Paris, active: false, owner: mark }
`
type Json = Record<string, unknown>

function problem(text: string): string {
  try {
    parseSeed(text, 'seed.yaml')
    return 'ok'
  } catch (err) {
    if (!(err instanceof SeedError)) throw err
    return err.message
  }
}

it('seeds schedules as the API makes them, and the clock runs the due active one', async () => {
  const t = await startServer(seed, { frozenAt: new Date('2030-01-01T00:00:00Z') })
  try {
    const S = '/api/v4/projects/acme%2Fapp/pipeline_schedules'
    const list = (await t.http('GET', S, { token: ROOT })).body as Json[]
    expect(list.map((s) => [s.ref, s.next_run_at, s.active, (s.owner as Json).username])).toEqual([
      ['refs/heads/main', '2030-01-01T01:03:00.000Z', true, 'mark'],
      ['refs/tags/v1', '2030-01-07T08:03:00.000Z', false, 'mark'],
    ])
    const one = (await t.http('GET', `${S}/${list[0]!.id}`, { token: ROOT })).body as Json
    expect(one.variables).toEqual([{ variable_type: 'env_var', key: 'NIGHTLY', value: 'yes', raw: false }])
    expect(one.inputs).toEqual([
      { name: 'target', value: 'prod' },
      { name: 'replicas', value: 2 },
      { name: 'zones', value: ['a', 'b'] },
    ])
    await t.http('POST', '/-/emulator/clock', {
      token: ROOT,
      json: { action: 'set', time: '2030-01-01T02:00:00Z' },
    })
    const pipelines = (await t.http('GET', `${S}/${list[0]!.id}/pipelines`, { token: ROOT })).body as Json[]
    expect(pipelines.map((p) => [p.source, p.ref])).toEqual([['schedule', 'main']])
  } finally {
    await t.close()
  }
})

it("refuses a seed's bad schedule with the API's words", () => {
  const cases: [string, string, string][] = [
    ['ref: main', 'ref: nope', '[0].ref: is ambiguous (no branch or tag nope)'],
    ['"0 1 * * *"', '"every day"', '[0].cron: syntax is invalid'],
    ['Europe/Paris', 'Mars/Olympus', '[1].cron_timezone: syntax is invalid'],
    ['NIGHTLY: "yes"', '"NO-DASH": x', "[0].variables.NO-DASH: can contain only letters, digits and '_'."],
    ['active: false, owner: mark', 'owner: nobody', '[1].owner: unknown user nobody'],
    [
      'target: prod',
      `target: ${'x'.repeat(1100)}`,
      '[0].inputs.target: exceeds max serialized size: 1024 characters',
    ],
    [
      'owner: mark }',
      `owner: mark, inputs: { ${Array.from({ length: 21 }, (_, i) => `i${i}: ${i}`).join(', ')} } }`,
      '[1].inputs: exceeds the limit of 20.',
    ],
  ]
  expect(problem(seed)).toBe('ok')
  for (const [from, to, message] of cases)
    expect(problem(seed.replace(from, to))).toBe(`seed.yaml: projects[0].pipeline_schedules${message}`)
})
