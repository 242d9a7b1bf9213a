import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildServer, type GitLabServer } from '../../../src/server/start/build-server.js'
import { writeExportTree } from '../../../src/server/archive/export-tree.js'
import { TarGzWriter } from '../../../src/server/archive/tar-gz-writer.js'
import { parseSeed } from '../../../src/server/seed/parse.js'
import { widgetsSeed } from '../../support/seeds.js'
import { tarGzMembers } from '../../support/archive-members.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

const TRICKY_TITLE = 'Tricky "quoted" \\ back\nslash\t\u0001 \u2028 é 😀 </script>'
const at = (day: number) => `2026-01-0${day}T00:00:00.000Z`
const SEEDED = '2026-03-01T12:00:00.000Z'

/** The widgets seed in a server, with its store and its project's issue ids by iid. */
async function widgets() {
  const server = await buildServer({
    seed: parseSeed(widgetsSeed, 'widgets.yaml'),
    clock: { now: () => new Date(SEEDED) },
  })
  const db = inspectDb(server.store)
  const project = server.store.projects.byPath('acme/widgets')!
  const ids = db
    .prepare('SELECT id FROM issues WHERE project_id = ? ORDER BY iid')
    .pluck()
    .all(project.id) as number[]
  return { server, db, ids }
}

/** Writes acme/widgets's export tree into `dir`; returns the archive's path. */
async function exported(server: GitLabServer, dir: string): Promise<string> {
  const project = server.store.projects.byPath('acme/widgets')!
  const file = join(dir, 'export.tar.gz')
  const archive = await TarGzWriter.create(file, new Date(SEEDED))
  await writeExportTree(archive, {
    reader: server.store.exportReader(),
    project,
    namespaceIds: [project.namespace_id],
    publicBuilds: true,
    gitlabVersion: '18.6.0',
    aborted: () => false,
  })
  await archive.close()
  return file
}

describe('writeExportTree', () => {
  let server: GitLabServer
  let dir: string
  let files: Map<string, { type: string; body: string }>
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'export-tree-'))
    let db: ReturnType<typeof inspectDb>
    let ids: number[]
    ;({ server, db, ids } = await widgets())
    const project = server.store.projects.byPath('acme/widgets')!
    const [first, second, third, fourth] = ids as [number, number, number, number]
    // Every relation an issue line carries, on issue #1; the booleans both ways on issues #1 and #2.
    db.prepare(
      `UPDATE issues SET title = ?, description = ?, discussion_locked = 1, weight = 3, health_status = 'at_risk',
         total_time_spent = 5400, relative_position = -5 WHERE id = ?`,
    ).run(TRICKY_TITLE, 'multi\r\nline \u007f \u00ad', first)
    db.prepare(
      'UPDATE issues SET discussion_locked = 0, confidential = 1, relative_position = 1000 WHERE id = ?',
    ).run(second)
    const timelog = db.prepare(
      'INSERT INTO timelogs (issue_id, user_id, time_spent, spent_at, summary, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    )
    timelog.run(first, 2, 1800, at(2), 'first hour', at(2))
    timelog.run(third, 3, 600, at(3), null, at(3))
    db.prepare('UPDATE issues SET total_time_spent = 600 WHERE id = ?').run(third)
    const note = db.prepare(
      'INSERT INTO notes (issue_id, author_id, body, system, internal, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    )
    note.run(first, 2, 'a note with "quotes"', 0, 0, at(4), at(5))
    note.run(first, 1, 'changed the description', 1, 0, at(6), at(6))
    const award = db.prepare(
      'INSERT INTO award_emoji (issue_id, user_id, name, created_at) VALUES (?, ?, ?, ?)',
    )
    award.run(first, 3, 'thumbsup', at(7))
    award.run(first, 2, 'tada', at(7))
    db.prepare('INSERT INTO issue_assignees (issue_id, user_id, position) VALUES (?, ?, ?)').run(first, 2, 1)
    db.prepare(
      'INSERT OR IGNORE INTO issue_labels (issue_id, label_id) SELECT ?, id FROM labels WHERE project_id = ?',
    ).run(fourth, project.id)
    const file = await exported(server, dir)
    files = await tarGzMembers(await readFile(file))
  })
  afterAll(async () => {
    await server.close()
    await rm(dir, { recursive: true, force: true })
  })
  const issueLines = () => files.get('./tree/project/issues.ndjson')!.body.split('\n').filter(Boolean)

  it('writes the members in the order tar -czf gives the sorted tree', () => {
    expect([...files.keys()]).toEqual([
      './',
      './GITLAB_REVISION',
      './GITLAB_VERSION',
      './VERSION',
      './lfs-objects.json',
      './project.bundle',
      './tree/',
      './tree/project/',
      './tree/project/ci_cd_settings.ndjson',
      './tree/project/issues.ndjson',
      './tree/project/labels.ndjson',
      './tree/project/merge_requests.ndjson',
      './tree/project/milestones.ndjson',
      './tree/project/project_feature.ndjson',
      './tree/project/project_members.ndjson',
      './tree/project/protected_branches.ndjson',
      './tree/project.json',
    ])
  })

  it('writes an issue with every relation as GitLab lays it out, key for key and byte for byte', () => {
    const label = {
      title: 'bug',
      color: '#d9534f',
      description: '',
      type: 'ProjectLabel',
      project_id: 1,
      group_id: null,
      template: false,
      created_at: SEEDED,
      updated_at: SEEDED,
      priorities: [],
    }
    const expected = {
      title: TRICKY_TITLE,
      author_id: 2,
      project_id: 1,
      created_at: '2026-01-01T10:00:00.000Z',
      updated_at: '2026-01-01T10:00:00.000Z',
      description: 'multi\r\nline \u007f \u00ad',
      iid: 1,
      updated_by_id: null,
      confidential: false,
      closed_at: null,
      closed_by_id: null,
      due_date: '2026-02-01',
      lock_version: 0,
      weight: 3,
      time_estimate: 12600,
      relative_position: -5,
      external_author: null,
      last_edited_at: null,
      last_edited_by_id: null,
      discussion_locked: true,
      health_status: 'at_risk',
      state: 'opened',
      work_item_type: { base_type: 'issue' },
      events: [],
      timelogs: [
        {
          time_spent: 1800,
          user_id: 2,
          spent_at: at(2),
          summary: 'first hour',
          project_id: 1,
          created_at: at(2),
          updated_at: at(2),
        },
        // The seeded rest of total_time_spent, as one entry by the author at creation.
        {
          time_spent: 3600,
          user_id: 2,
          spent_at: '2026-01-01T10:00:00.000Z',
          summary: null,
          project_id: 1,
          created_at: '2026-01-01T10:00:00.000Z',
          updated_at: '2026-01-01T10:00:00.000Z',
        },
      ],
      notes: [
        {
          note: 'a note with "quotes"',
          noteable_type: 'Issue',
          author_id: 2,
          system: false,
          confidential: false,
          discussion_id: expect.stringMatching(/^[0-9a-f]{40}$/),
          type: null,
          created_at: at(4),
          updated_at: at(5),
          author: { name: 'Alice' },
          award_emoji: [],
          events: [],
        },
        {
          note: 'changed the description',
          noteable_type: 'Issue',
          author_id: 1,
          system: true,
          confidential: false,
          discussion_id: expect.stringMatching(/^[0-9a-f]{40}$/),
          type: null,
          created_at: at(6),
          updated_at: at(6),
          author: { name: 'Administrator' },
          award_emoji: [],
          events: [],
        },
      ],
      label_links: [{ target_type: 'Issue', created_at: SEEDED, updated_at: SEEDED, label }],
      milestone: {
        iid: 1,
        title: 'v1.0',
        description: null,
        state: 'active',
        start_date: '2020-01-01',
        due_date: '2099-12-31',
        project_id: 1,
        group_id: null,
        created_at: SEEDED,
        updated_at: SEEDED,
        events: [],
      },
      resource_label_events: [],
      resource_milestone_events: [],
      resource_state_events: [],
      designs: [],
      design_versions: [],
      issue_assignees: [{ user_id: 3 }, { user_id: 2 }],
      zoom_meetings: [],
      award_emoji: [
        { name: 'thumbsup', user_id: 3, awardable_type: 'Issue', created_at: at(7), updated_at: at(7) },
        { name: 'tada', user_id: 2, awardable_type: 'Issue', created_at: at(7), updated_at: at(7) },
      ],
    }
    const line = issueLines()[0]!
    const parsed = JSON.parse(line) as Record<string, unknown>
    expect(parsed).toEqual(expected)
    expect(Object.keys(parsed)).toEqual(Object.keys(expected))
    // Compact JSON, escaped as JSON.stringify escapes it.
    expect(line).toBe(JSON.stringify(parsed))
  })

  it('writes the booleans both ways, labels by title, and empty relations as []', () => {
    const [, second, third, fourth] = issueLines().map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(second).toMatchObject({ confidential: true, discussion_locked: false, timelogs: [], notes: [] })
    expect(third!.timelogs).toEqual([
      {
        time_spent: 600,
        user_id: 3,
        spent_at: at(3),
        summary: null,
        project_id: 1,
        created_at: at(3),
        updated_at: at(3),
      },
    ])
    expect((fourth!.label_links as { label: { title: string } }[]).map((l) => l.label.title)).toEqual([
      'bug',
      'docs',
      'feature',
    ])
    expect(fourth).toMatchObject({ discussion_locked: null, issue_assignees: [], award_emoji: [], notes: [] })
    expect(fourth).not.toHaveProperty('milestone')
  })
})

describe('writeExportTree, lists longer than a batch reads', () => {
  // Past 10,000 rows (or 16 MB of text) among a batch's issues, an issue's notes, timelogs and award
  // emoji are written a page at a time: the same line as a short list's, in id order.
  const LONG = 10_500
  const BIG_NOTES = 17 // of 1 MB each
  type Json = Record<string, unknown>
  let server: GitLabServer
  let dir: string
  let lines: Json[]
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'export-tree-long-'))
    let db: ReturnType<typeof inspectDb>
    let ids: number[]
    ;({ server, db, ids } = await widgets())
    const [first, second, third] = ids as [number, number, number]
    const note = db.prepare(
      'INSERT INTO notes (issue_id, author_id, body, system, internal, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    )
    const timelog = db.prepare(
      'INSERT INTO timelogs (issue_id, user_id, time_spent, spent_at, summary, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    )
    const award = db.prepare(
      'INSERT INTO award_emoji (issue_id, user_id, name, created_at) VALUES (?, ?, ?, ?)',
    )
    server.store.transaction(() => {
      // Interleaved with the second issue's, so that a page must skip rows of another issue.
      for (let i = 0; i < LONG; i++) {
        note.run(first, 2, `note ${i}`, i % 2, 0, at(4), at(5))
        if (i % 1000 === 0) note.run(second, 1, `short ${i}`, 0, 0, at(4), at(5))
        timelog.run(first, 2, 60, at(2), null, at(2))
        award.run(first, 2, `emoji_${i}`, at(7))
      }
      for (let i = 0; i < BIG_NOTES; i++)
        note.run(third, 1, `${i}`.padEnd(1024 * 1024, 'x'), 0, 0, at(4), at(4))
    })
    db.prepare('UPDATE issues SET total_time_spent = ? WHERE id = ?').run(60 * LONG + 30, first)
    const file = await exported(server, dir)
    const body = (await tarGzMembers(await readFile(file))).get('./tree/project/issues.ndjson')!.body
    lines = body
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Json)
  })
  afterAll(async () => {
    await server.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('writes every row, in id order, with the remainder timelog last, keys as a short line has them', () => {
    const [first, second, third, fourth] = lines as [Json, Json, Json, Json]
    // (The fourth issue has no milestone: the key is left out.)
    expect(Object.keys(first).filter((k) => k !== 'milestone')).toEqual(Object.keys(fourth))
    const notes = first.notes as Json[]
    expect(notes.map((n) => n.note)).toEqual(Array.from({ length: LONG }, (_, i) => `note ${i}`))
    expect(notes[1]).toMatchObject({ system: true, author: { name: expect.any(String) }, award_emoji: [] })
    const logs = first.timelogs as Json[]
    expect(logs).toHaveLength(LONG + 1)
    expect(logs.at(-1)).toMatchObject({ time_spent: 30, spent_at: first.created_at })
    const awards = first.award_emoji as Json[]
    expect(awards.map((a) => a.name)).toEqual(Array.from({ length: LONG }, (_, i) => `emoji_${i}`))
    expect((second.notes as Json[]).map((n) => n.note)).toEqual(
      Array.from({ length: Math.ceil(LONG / 1000) }, (_, i) => `short ${i * 1000}`),
    )
    expect((third.notes as Json[]).map((n) => (n.note as string).length)).toEqual(
      Array(BIG_NOTES).fill(1024 * 1024),
    )
  })
})

describe('writeExportTree with resource events', () => {
  it("writes each issue's state, label and milestone events, and none on issues without", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'export-events-'))
    const { server, db, ids } = await widgets()
    try {
      const [first, , third] = ids as [number, number, number]
      const label = db.prepare('SELECT id FROM labels LIMIT 1').pluck().get() as number
      db.prepare(
        "INSERT INTO resource_state_events (issue_id, user_id, state, created_at) VALUES (?, 1, 'closed', ?)",
      ).run(third, at(3))
      db.prepare(
        "INSERT INTO resource_label_events (issue_id, user_id, label_id, action, created_at) VALUES (?, 1, ?, 'add', ?)",
      ).run(first, label, at(4))
      const body = (await tarGzMembers(await readFile(await exported(server, dir)))).get(
        './tree/project/issues.ndjson',
      )!.body
      const lines = body
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown[]>)
      const byIid = new Map(lines.map((l) => [l.iid as unknown as number, l]))
      expect(byIid.get(3)?.resource_state_events).toEqual([
        expect.objectContaining({ state: 'closed', user_id: 1, created_at: at(3) }),
      ])
      expect(byIid.get(1)?.resource_label_events).toEqual([
        expect.objectContaining({ action: 'add', user_id: 1, created_at: at(4) }),
      ])
      expect(byIid.get(2)?.resource_state_events).toEqual([])
      expect(byIid.get(2)?.resource_label_events).toEqual([])
    } finally {
      await server.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})
