import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { parseDocument, stringify } from 'yaml'
import { loadSeedFile, parseSeed, SeedError } from '../../../src/server/seed/parse.js'
import { designSeed } from './fixtures.js'
import { TRICKY_SCALARS } from '../../support/yaml-scalars.js'

/** The message `parseSeed` throws, or `ok`. */
function problem(text: string): string {
  try {
    parseSeed(text, 'seed.yaml')
    return 'ok'
  } catch (err) {
    if (!(err instanceof SeedError)) throw err
    expect(err.message).not.toContain('\n')
    return err.message
  }
}

const users = `
users:
  - { username: root, admin: true, token: glpat-root-token }
  - { username: alice, token: glpat-alice-token }
  - { username: bob }
groups:
  - { path: acme, members: { alice: maintainer } }
`
/** `users`, `groups` and one project acme/widgets with labels bug and docs, milestone v1.0. */
const project = (body: string) => `${users}
projects:
  - path: acme/widgets
    labels: [ { name: bug }, { name: docs } ]
    milestones: [ { title: v1.0 } ]
${body}`
/** The project above with these issues (iids 1..n). */
const issues = (...list: string[]) => project(`    issues:\n${list.map((i) => `      - ${i}\n`).join('')}`)

describe('parseSeed', () => {
  it('parses the full example seed into the typed seed, filling no defaults', () => {
    const seed = parseSeed(designSeed, 'seed.yaml')
    expect(seed.users?.map((u) => u.username)).toEqual(['root', 'alice', 'bob'])
    expect(seed.users?.[1]).toEqual({ username: 'alice', token: 'glpat-alice-token' })
    const widgets = seed.projects?.[0]
    expect(widgets?.milestones?.[0]).toEqual({
      title: 'v1.0',
      state: 'active',
      start_date: '2026-11-01',
      due_date: '2026-12-31',
    })
    expect(widgets?.issues?.[0]).toMatchObject({
      description: '- [x] reproduce\n- [ ] fix',
      created_at: '2026-11-02T10:00:00.000Z',
      due_date: '2026-12-01',
      time_estimate: '3h 30m',
    })
    expect(widgets?.merge_requests?.[0]?.closes_issues).toEqual([1])
    expect(seed.aliases).toEqual([{ name: 'widgets', project: 'acme/widgets' }])
  })

  it('reads JSON, and an empty file is an empty seed', () => {
    const json = JSON.stringify({ users: [{ username: 'root' }], projects: [{ path: 'root/x' }] })
    expect(parseSeed(json, 'seed.json').projects).toEqual([{ path: 'root/x' }])
    expect(parseSeed('', 'seed.yaml')).toEqual({})
    expect(parseSeed('# nothing yet\n', 'seed.yaml')).toEqual({})
  })

  it('accepts case-insensitive user and namespace references, as the store compares them', () => {
    expect(problem(`${users}projects: [ { path: ACME/w, members: { Bob: developer } } ]`)).toBe('ok')
  })

  describe('shape problems', () => {
    it.each<[string, string, string]>([
      ['an unknown key', `${users}  - { path: x, frobnicate: 1 }`, 'groups[1].frobnicate: unknown key'],
      [
        'an unknown key on a user',
        'users: [ { username: a }, { username: b }, { username: c, frobnicate: true } ]',
        'users[2].frobnicate: unknown key',
      ],
      ['an unknown top-level key', 'user: []', 'user: unknown key'],
      [
        'a missing required key',
        'users: [ { username: a }, { name: B } ]',
        'users[1].username: missing required key',
      ],
      [
        'a missing title',
        issues('{ title: a }', '{ author: bob }'),
        'projects[0].issues[1].title: missing required key',
      ],
      [
        'a wrong enum value',
        issues('{ title: a }', '{ title: b }', '{ title: c, state: open }'),
        'projects[0].issues[2].state: expected opened or closed',
      ],
      [
        'a wrong role',
        `${users}  - { path: other, members: { bob: boss } }`,
        'groups[1].members.bob: expected guest, planner, reporter, developer, maintainer or owner',
      ],
      [
        'a number for a string',
        issues('{ title: 1.0 }'),
        'projects[0].issues[0].title: expected a string, got 1',
      ],
      [
        'null for a string',
        issues('{ title: a, description: }'),
        'projects[0].issues[0].description: expected a string, got null',
      ],
      [
        'a string for a boolean',
        'users: [ { username: a, admin: yes } ]',
        'users[0].admin: expected true or false, got "yes"',
      ],
      ['a mapping for a list', 'users: { username: a }', 'users: expected a list, got a mapping'],
      [
        'a list for a mapping',
        `${users}  - { path: x, members: [alice] }`,
        'groups[1].members: expected a mapping, got a list',
      ],
      ['a list for the whole seed', '- a\n- b\n', 'expected a mapping, got a list'],
      [
        'a fraction for an integer',
        issues('{ title: a, weight: 1.5 }'),
        'projects[0].issues[0].weight: expected an integer, got 1.5',
      ],
      [
        'a negative weight',
        issues('{ title: a, weight: -1 }'),
        'projects[0].issues[0].weight: expected an integer >= 0, got -1',
      ],
      ['an empty title', issues("{ title: '' }"), 'projects[0].issues[0].title: must not be empty'],
      [
        'a project path without namespace',
        'projects: [ { path: widgets } ]',
        'projects[0].path: expected a namespace path and a project path like acme/widgets, got "widgets"',
      ],
      [
        'a username with a slash',
        'users: [ { username: a/b } ]',
        'users[0].username: expected a username (letters, digits, _ . -), got "a/b"',
      ],
      [
        'a colour that is not hex',
        `${users}projects: [ { path: acme/w, labels: [ { name: bug, color: red } ] } ]`,
        'projects[0].labels[0].color: expected a colour like #d9534f, got "red"',
      ],
    ])('%s', (_what, text, message) => {
      expect(problem(text)).toBe(`seed.yaml: ${message}`)
    })

    it('reports the problem earliest in the file first', () => {
      const text = 'users:\n  - { username: a, frobnicate: 1 }\n  - { username: b, admin: maybe }\n'
      expect(problem(text)).toBe('seed.yaml: users[0].frobnicate: unknown key')
      const reversed = 'users:\n  - { username: b, admin: maybe }\n  - { username: a, frobnicate: 1 }\n'
      expect(problem(reversed)).toBe('seed.yaml: users[0].admin: expected true or false, got "maybe"')
    })

    it('quotes keys that are not plain words', () => {
      expect(
        problem('users: [ { username: j.doe } ]\ngroups: [ { path: g, members: { j.doe: chief } } ]'),
      ).toBe(
        'seed.yaml: groups[0].members["j.doe"]: expected guest, planner, reporter, developer, maintainer or owner',
      )
    })
  })

  describe('YAML syntax', () => {
    it.each<[string, string]>([
      [
        'users:\n  - username: a\n  bad: [1, 2\n',
        'line 3, column 1: All mapping items must start at the same column',
      ],
      ['users:\n  - { username: a }\nusers: []\n', 'line 3, column 1: Map keys must be unique'],
      ['a: b: c\n', 'line 1, column 4: Nested mappings are not allowed in compact mappings'],
      ['users:\n\t- username: a\n', 'line 2, column 1: Tabs are not allowed as indentation'],
    ])('%j', (text, message) => {
      expect(problem(text)).toBe(`seed.yaml: ${message}`)
    })
  })

  describe('reference problems', () => {
    it.each<[string, string, string]>([
      [
        'a duplicate username',
        `${users}`.replace('{ username: bob }', '{ username: Alice }'),
        'users[2].username: duplicate username Alice',
      ],
      [
        'a duplicate token',
        users.replace('{ username: bob }', '{ username: bob, token: glpat-root-token }'),
        'users[2].token: duplicate token (same as users[0].token)',
      ],
      ['a duplicate group path', `${users}  - { path: acme }`, 'groups[1].path: duplicate path acme'],
      [
        'a group on a user namespace',
        `${users}  - { path: bob }`,
        "groups[1].path: duplicate path bob (a user's namespace)",
      ],
      [
        'a nested group before its parent',
        'groups: [ { path: a/b }, { path: a } ]',
        'groups[0].path: parent group a must be listed before a/b',
      ],
      [
        'a nested group without parent',
        'groups: [ { path: a }, { path: x/b } ]',
        'groups[1].path: unknown parent group x',
      ],
      [
        'an unknown group member',
        `${users}  - { path: other, members: { carol: guest } }`,
        'groups[1].members.carol: unknown user carol',
      ],
      [
        'an unknown project member',
        project('    members: { carol: developer }'),
        'projects[0].members.carol: unknown user carol',
      ],
      [
        'a duplicate project path',
        `${users}projects: [ { path: acme/widgets }, { path: acme/widgets } ]`,
        'projects[1].path: duplicate path acme/widgets',
      ],
      [
        'a project on a group path',
        `${users}  - { path: acme/api }\nprojects: [ { path: acme/api } ]`,
        'projects[0].path: duplicate path acme/api (a group)',
      ],
      [
        'an unknown namespace',
        `${users}projects: [ { path: nobody/widgets } ]`,
        'projects[0].path: unknown namespace nobody (not a listed group or user)',
      ],
      [
        'a fork of a project not listed before it',
        `${users}projects: [ { path: acme/fork, forked_from: acme/w }, { path: acme/w } ]`,
        'projects[0].forked_from: unknown project acme/w (not a project listed before this one)',
      ],
      [
        'a fork of itself',
        `${users}projects: [ { path: acme/w, forked_from: acme/W } ]`,
        'projects[0].forked_from: a project cannot be a fork of itself',
      ],
      [
        'a fork more visible than its source',
        `${users}projects: [ { path: acme/w }, { path: acme/fork, visibility: internal, forked_from: acme/w } ]`,
        'projects[1].visibility: internal is not allowed since the fork source project (acme/w) has lower visibility',
      ],
      [
        'a fork with a repository of its own',
        `${users}projects: [ { path: acme/w }, { path: acme/fork, forked_from: acme/w, branches: [x] } ]`,
        "projects[1].branches: a fork's repository is its source's (acme/w): it takes no branches",
      ],
      [
        'a duplicate label',
        `${users}projects: [ { path: acme/w, labels: [ { name: bug }, { name: bug } ] } ]`,
        'projects[0].labels[1].name: duplicate label bug',
      ],
      [
        'a duplicate milestone',
        project('').replace('[ { title: v1.0 } ]', '[ { title: v1.0 }, { title: v1.0 } ]'),
        'projects[0].milestones[1].title: duplicate milestone v1.0',
      ],
      [
        'a duplicate CI job',
        project('    ci_jobs: [build, test, build]'),
        'projects[0].ci_jobs[2]: duplicate job build',
      ],
      [
        'an unknown issue author',
        issues('{ title: a, author: carol }'),
        'projects[0].issues[0].author: unknown user carol',
      ],
      [
        'an unknown assignee',
        issues('{ title: a, assignees: [bob, carol] }'),
        'projects[0].issues[0].assignees[1]: unknown user carol',
      ],
      [
        'a duplicate assignee',
        issues('{ title: a, assignees: [bob, bob] }'),
        'projects[0].issues[0].assignees[1]: duplicate assignee bob',
      ],
      [
        'an unknown label',
        issues('{ title: a, labels: [bug, feature] }'),
        'projects[0].issues[0].labels[1]: unknown label feature (not in projects[0].labels)',
      ],
      [
        'a duplicate issue label',
        issues('{ title: a, labels: [bug, bug] }'),
        'projects[0].issues[0].labels[1]: duplicate label bug',
      ],
      [
        'an unknown milestone',
        issues('{ title: a }', '{ title: b, milestone: v2.0 }'),
        'projects[0].issues[1].milestone: unknown milestone v2.0 (not in projects[0].milestones)',
      ],
      [
        'an invalid due date',
        issues('{ title: a, due_date: 2026-02-30 }'),
        'projects[0].issues[0].due_date: invalid date 2026-02-30 (expected YYYY-MM-DD)',
      ],
      [
        'a due date that is not YYYY-MM-DD',
        issues("{ title: a, due_date: '1 Dec 2026' }"),
        'projects[0].issues[0].due_date: invalid date 1 Dec 2026 (expected YYYY-MM-DD)',
      ],
      [
        'an invalid milestone start date',
        project('').replace('{ title: v1.0 }', '{ title: v1.0, start_date: 2026-13-01 }'),
        'projects[0].milestones[0].start_date: invalid date 2026-13-01 (expected YYYY-MM-DD)',
      ],
      [
        'a milestone due before it starts',
        project('').replace(
          '{ title: v1.0 }',
          '{ title: v1.0, start_date: 2026-02-01, due_date: 2026-01-31 }',
        ),
        'projects[0].milestones[0].due_date: due date 2026-01-31 is before start date 2026-02-01',
      ],
      [
        'an invalid created_at',
        issues("{ title: a, created_at: '2026-11-02 10:00' }"),
        'projects[0].issues[0].created_at: invalid timestamp 2026-11-02 10:00 (expected ISO 8601 like 2026-11-02T10:00:00.000Z)',
      ],
      [
        'a created_at without zone',
        issues('{ title: a, created_at: 2026-11-02T10:00:00 }'),
        'projects[0].issues[0].created_at: invalid timestamp 2026-11-02T10:00:00 (expected ISO 8601 like 2026-11-02T10:00:00.000Z)',
      ],
      [
        'an unparsable time estimate',
        issues('{ title: a, time_estimate: soon }'),
        'projects[0].issues[0].time_estimate: invalid duration "soon" (expected e.g. 3h 30m)',
      ],
      [
        'a negative time spent',
        issues('{ title: a, time_spent: -1h }'),
        'projects[0].issues[0].time_spent: duration -1h must not be negative',
      ],
      [
        'more than 4 years spent',
        issues('{ title: a, time_spent: 5y }'),
        'projects[0].issues[0].time_spent: duration 5y exceeds 4 years',
      ],
      [
        'an unparsable job duration',
        project('    ci_job_duration: fast'),
        'projects[0].ci_job_duration: invalid duration "fast" (expected e.g. 3h 30m)',
      ],
      [
        'an unknown closed issue',
        project('    issues: [ { title: a } ]\n    merge_requests: [ { title: m, closes_issues: [1, 2] } ]'),
        'projects[0].merge_requests[0].closes_issues[1]: unknown issue iid 2 (projects[0] has 1 issues)',
      ],
      [
        'an unknown mentioned issue',
        project('    merge_requests: [ { title: m, mentions_issues: [1] } ]'),
        'projects[0].merge_requests[0].mentions_issues[0]: unknown issue iid 1 (projects[0] has 0 issues)',
      ],
      [
        'an unknown merge request author',
        project('    merge_requests: [ { title: m, author: dave } ]'),
        'projects[0].merge_requests[0].author: unknown user dave',
      ],
      [
        'an unknown trigger owner',
        project('    triggers: [ { owner: carol } ]'),
        'projects[0].triggers[0].owner: unknown user carol',
      ],
      [
        'a duplicate trigger token',
        `${users}projects:\n  - { path: acme/a, triggers: [ { token: glptt-1 } ] }\n  - { path: acme/b, triggers: [ { token: glptt-1 } ] }`,
        'projects[1].triggers[0].token: duplicate trigger token (same as projects[0].triggers[0].token)',
      ],
      [
        'a variable key the API refuses',
        project('    variables: [ { key: OK, value: x }, { key: bad-key, value: x } ]'),
        "projects[0].variables[1].key: can contain only letters, digits and '_'.",
      ],
      [
        'a masked variable value too short',
        project('    variables: [ { key: TOKEN, value: short, masked: true } ]'),
        'projects[0].variables[0].value: is invalid',
      ],
      [
        'a variable key repeated in one environment scope',
        project('    variables: [ { key: URL, value: a }, { key: URL, value: b, environment_scope: "*" } ]'),
        'projects[0].variables[1].key: (URL) has already been taken',
      ],
      [
        'a group variable with a bad environment scope',
        `${users}  - { path: acme/ops, variables: [ { key: K, value: v, environment_scope: "a!b" } ] }`,
        "groups[1].variables[0].environment_scope: can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces",
      ],
      [
        'an instance variable key repeated',
        `${users}variables: [ { key: SITE, value: a }, { key: SITE, value: b } ]`,
        'variables[1].key: (SITE) has already been taken',
      ],
      [
        'an instance variable value past 10,000 characters',
        `${users}variables: [ { key: SITE, value: ${'x'.repeat(10_001)} } ]`,
        'variables[0].value: The value of the provided variable exceeds the 10000 character limit',
      ],
      [
        'a 26th instance variable',
        `${users}variables: [ ${Array.from({ length: 26 }, (_, i) => `{ key: V${i}, value: v }`).join(', ')} ]`,
        'variables[25].base: Maximum number of ci instance level variables (25) exceeded',
      ],
      [
        'an alias of an unknown project',
        project('aliases: [ { name: w, project: acme/nope } ]'),
        'aliases[0].project: unknown project acme/nope',
      ],
      [
        'a duplicate alias',
        project('aliases: [ { name: w, project: acme/widgets }, { name: w, project: acme/widgets } ]'),
        'aliases[1].name: duplicate alias w',
      ],
    ])('%s', (_what, text, message) => {
      expect(problem(text)).toBe(`seed.yaml: ${message}`)
    })

    it('reports the reference problem earliest in the file first', () => {
      const text = issues('{ title: a, author: dave, assignees: [erin] }', '{ title: b, labels: [nope] }')
      expect(problem(text)).toBe('seed.yaml: projects[0].issues[0].author: unknown user dave')
    })

    it('does not depend on the order of the top-level keys', () => {
      const text = `projects: [ { path: acme/w, members: { bob: developer } } ]\n${users}`
      expect(problem(text)).toBe('ok')
    })
  })
})

// parseSeed reads most seeds with js-yaml (start-up time) and falls back to `yaml`; the result must
// always be what `yaml` reads.
describe('parseSeed reads every seed as the yaml library does', () => {
  const yamlReads = (text: string) => parseDocument(text).toJS() as unknown

  it('honours a %YAML 1.1 directive, which js-yaml would ignore', () => {
    const text = `%YAML 1.1\n---\n${issues('{ title: Leak, confidential: yes }')}`
    expect(parseSeed(text, 'seed.yaml').projects?.[0]?.issues?.[0]?.confidential).toBe(true)
    expect(problem(`%YAML 1.1\n---\n${issues('{ title: yes }')}`)).toBe(
      'seed.yaml: projects[0].issues[0].title: expected a string, got true',
    )
  })

  it('reads tags and null keys as yaml does', () => {
    expect(problem(issues('{ title: Weighty, weight: !!str 3 }'))).toBe(
      'seed.yaml: projects[0].issues[0].weight: expected an integer, got "3"',
    )
    // js-yaml would read the key `null` as the user "null"; yaml reads the empty string.
    const nullKey = `users: [ { username: "null" }, { username: alice } ]\ngroups: [ { path: g, members: { null: developer } } ]\n`
    expect(problem(nullKey)).toBe(problem(nullKey.replace('{ null:', '{ "":')))
    expect(problem(nullKey)).not.toBe('ok')
  })

  it('gives the value yaml reads for generated titles, descriptions and labels', () => {
    const tricky = fc.constantFrom(...TRICKY_SCALARS)
    const text = fc.oneof(
      tricky,
      fc.string({ unit: 'grapheme', maxLength: 30 }),
      fc.string({ maxLength: 30 }),
    )
    const issue = fc.record({
      title: text.filter((t) => t.trim() !== ''),
      description: fc.option(text, { nil: undefined }),
      labels: fc.option(fc.subarray(['bug', 'docs']), { nil: undefined }),
    })
    fc.assert(
      fc.property(fc.array(issue, { minLength: 1, maxLength: 5 }), fc.boolean(), (list, flow) => {
        const seed = {
          groups: [{ path: 'acme' }],
          projects: [{ path: 'acme/widgets', labels: [{ name: 'bug' }, { name: 'docs' }], issues: list }],
        }
        const written = stringify(seed, flow ? { collectionStyle: 'flow' } : {})
        const read = yamlReads(written) as typeof seed
        expect(parseSeed(written, 'seed.yaml')).toEqual(read)
      }),
      { numRuns: 300 },
    )
  })

  it('gives the value yaml reads for the full example seed and the demo seed', async () => {
    const demo = await readFile('examples/seed.yaml', 'utf8')
    for (const text of [designSeed, demo]) expect(parseSeed(text, 'seed.yaml')).toEqual(yamlReads(text))
  })
})

describe('loadSeedFile', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'seed-'))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('reads the examples/seed.yaml demo seed', async () => {
    const seed = await loadSeedFile('examples/seed.yaml')
    expect(seed.projects?.map((p) => p.path)).toEqual([
      'acme/widgets',
      'acme/platform/api',
      'opensource/toolkit',
      'alice/sandbox',
    ])
    expect(seed.projects?.[0]?.issues).toHaveLength(8)
    for (const t of seed.projects?.flatMap((p) => p.triggers ?? []) ?? [])
      expect(t.token).toMatch(/^glptt-[0-9a-f]{40}$/)
  })

  it('names the file as given in its messages', async () => {
    const path = join(dir, 'bad.yaml')
    await writeFile(path, 'users: [ { username: a, frobnicate: 1 } ]\n')
    await expect(loadSeedFile(path)).rejects.toThrow(`${path}: users[0].frobnicate: unknown key`)
  })

  it('throws a SeedError for a file that cannot be read', async () => {
    const path = join(dir, 'missing.yaml')
    await expect(loadSeedFile(path)).rejects.toThrow(new SeedError(path, '', 'cannot read the file (ENOENT)'))
  })
})
