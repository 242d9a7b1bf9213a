import { startServer, type TestServer } from '../../support/server.js'
import { inspectDb } from '../../../src/server/store/inspect.js'
import { detailSeed, OTHER, P, T } from './issue-details-seed.js'

/*
 * An archived project is read-only for everyone, administrators included (GitLab's `ArchivedAbilities`,
 * `ProjectPolicy`'s `rule { archived }`): every write below answers as GitLab's `authorize!` does and
 * changes nothing; reads stay open, and unarchiving opens the writes again.
 */

type Json = Record<string, unknown>
const FORBIDDEN = { status: 403, body: { message: '403 Forbidden' } }
// `user_can_award?` is asked with the read check: the award API answers 404 for both.
const NO_AWARD = { status: 404, body: { message: '404 Award Emoji Not Found' } }

const NO_MOVE = { status: 400, body: { message: 'Cannot move issue due to insufficient permissions!' } }

let t: TestServer
/** What the writes name: made before the project is archived. */
let ids: {
  note: number
  discussion: string
  threadNote: number
  milestone: number
  schedule: number
  trigger: number
  environment: number
}
let other: number
let second: number

const ok = async (method: string, path: string, json: Json, token: string = T.maintainer) => {
  const res = await t.http(method, path, { token, json })
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`)
  return res.body as Json
}

beforeEach(async () => {
  t = await startServer(detailSeed)
  const note = await ok('POST', `${P}/issues/1/notes`, { body: 'a note' })
  const thread = await ok('POST', `${P}/issues/1/discussions`, { body: 'a thread' })
  const milestone = (await t.http('GET', `${P}/milestones`, { token: T.root })).body as Json[]
  const schedule = await ok('POST', `${P}/pipeline_schedules`, {
    description: 'nightly',
    ref: 'main',
    cron: '0 1 * * *',
  })
  const trigger = await ok('POST', `${P}/triggers`, { description: 'deploy' })
  const environment = await ok('POST', `${P}/environments`, { name: 'staging' })
  ids = {
    note: note.id as number,
    discussion: thread.id as string,
    threadNote: ((thread.notes as Json[])[0] as Json).id as number,
    milestone: (milestone[0] as Json).id as number,
    schedule: schedule.id as number,
    trigger: trigger.id as number,
    environment: environment.id as number,
  }
  other = ((await t.http('GET', OTHER, { token: T.root })).body as Json).id as number
  second = ((await t.http('GET', `${P}/issues/2`, { token: T.root })).body as Json).id as number
})
afterEach(() => t.close())

const setArchived = async (archived: boolean) =>
  expect(
    (await t.http('POST', `${P}/${archived ? 'archive' : 'unarchive'}`, { token: T.owner })).status,
  ).toBe(201)

/** Every row of every table: a refused write leaves all of them as they were. */
const everything = () => {
  const db = inspectDb(t.server.store)
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .pluck()
    .all() as string[]
  return Object.fromEntries(tables.map((name) => [name, db.prepare(`SELECT * FROM "${name}"`).all()]))
}

/** The writes GitLab's archived rule refuses, with the answer each gets. */
const refusedWrites = (): [string, string, Json, typeof FORBIDDEN][] => {
  const issue = `${P}/issues/1`
  const thread = `${issue}/discussions/${ids.discussion}`
  const schedule = `${P}/pipeline_schedules/${ids.schedule}`
  const trigger = `${P}/triggers/${ids.trigger}`
  const milestone = `${P}/milestones/${ids.milestone}`
  return [
    ['POST', `${P}/issues`, { title: 'New' }, FORBIDDEN],
    ['PUT', issue, { title: 'Renamed' }, FORBIDDEN],
    ['PUT', `${issue}/reorder`, { move_after_id: second }, FORBIDDEN],
    // `Issues::MoveService` refuses without `admin_issue` in either project: its `MoveError` is a 400.
    ['POST', `${issue}/move`, { to_project_id: other }, NO_MOVE],
    ['POST', `${issue}/notes`, { body: 'another' }, FORBIDDEN],
    ['PUT', `${issue}/notes/${ids.note}`, { body: 'edited' }, FORBIDDEN],
    ['DELETE', `${issue}/notes/${ids.note}`, {}, FORBIDDEN],
    ['POST', `${issue}/discussions`, { body: 'another thread' }, FORBIDDEN],
    ['POST', `${thread}/notes`, { body: 'a reply' }, FORBIDDEN],
    ['PUT', `${thread}/notes/${ids.threadNote}`, { body: 'edited' }, FORBIDDEN],
    ['PUT', `${thread}/notes/${ids.threadNote}`, { resolved: true }, FORBIDDEN],
    ['DELETE', `${thread}/notes/${ids.threadNote}`, {}, FORBIDDEN],
    ['POST', `${issue}/award_emoji`, { name: 'thumbsup' }, NO_AWARD],
    ['POST', `${issue}/notes/${ids.note}/award_emoji`, { name: 'thumbsup' }, NO_AWARD],
    ['POST', `${issue}/time_estimate`, { duration: '2h' }, FORBIDDEN],
    ['POST', `${issue}/reset_time_estimate`, {}, FORBIDDEN],
    ['POST', `${issue}/add_spent_time`, { duration: '1h' }, FORBIDDEN],
    ['POST', `${issue}/reset_spent_time`, {}, FORBIDDEN],
    ['POST', `${P}/labels`, { name: 'new', color: '#123456' }, FORBIDDEN],
    ['PUT', `${P}/labels/bug`, { new_name: 'defect' }, FORBIDDEN],
    ['DELETE', `${P}/labels/bug`, {}, FORBIDDEN],
    ['PUT', `${P}/labels/bug/promote`, {}, FORBIDDEN],
    ['POST', `${P}/milestones`, { title: 'v2.0' }, FORBIDDEN],
    ['PUT', milestone, { title: 'v1.1' }, FORBIDDEN],
    ['DELETE', milestone, {}, FORBIDDEN],
    ['POST', `${milestone}/promote`, {}, FORBIDDEN],
    ['PUT', schedule, { description: 'weekly' }, FORBIDDEN],
    ['POST', `${schedule}/take_ownership`, {}, FORBIDDEN],
    ['POST', `${schedule}/play`, {}, FORBIDDEN],
    ['POST', `${schedule}/variables`, { key: 'K', value: 'v' }, FORBIDDEN],
    ['DELETE', schedule, {}, FORBIDDEN],
    ['GET', `${P}/triggers`, {}, FORBIDDEN],
    ['POST', `${P}/triggers`, { description: 'another' }, FORBIDDEN],
    ['PUT', trigger, { description: 'edited' }, FORBIDDEN],
    ['DELETE', trigger, {}, FORBIDDEN],
    ['POST', `${P}/environments`, { name: 'production' }, FORBIDDEN],
    [
      'PUT',
      `${P}/environments/${ids.environment}`,
      { external_url: 'https://staging.example.com' },
      FORBIDDEN,
    ],
    ['DELETE', `${P}/environments/${ids.environment}`, {}, FORBIDDEN],
  ]
}

/** Reads GitLab leaves open on an archived project. */
const reads = () => [
  `${P}/issues/1`,
  `${P}/issues/1/notes`,
  `${P}/issues/1/discussions`,
  `${P}/issues/1/award_emoji`,
  `${P}/labels`,
  `${P}/milestones`,
  `${P}/pipeline_schedules/${ids.schedule}`,
  `${P}/environments/${ids.environment}`,
]

/** Some of the refused writes, and what they answer once the project is unarchived. */
const writesAgain = (): [string, string, Json, number][] => {
  const issue = `${P}/issues/1`
  return [
    ['PUT', issue, { title: 'Renamed' }, 200],
    ['POST', `${issue}/notes`, { body: 'another' }, 201],
    ['PUT', `${issue}/notes/${ids.note}`, { body: 'edited' }, 200],
    ['POST', `${issue}/discussions`, { body: 'another thread' }, 201],
    ['POST', `${issue}/award_emoji`, { name: 'thumbsup' }, 201],
    ['POST', `${issue}/add_spent_time`, { duration: '1h' }, 201],
    ['POST', `${P}/labels`, { name: 'new', color: '#123456' }, 201],
    ['POST', `${P}/milestones`, { title: 'v2.0' }, 201],
    ['PUT', `${P}/pipeline_schedules/${ids.schedule}`, { description: 'weekly' }, 200],
    ['GET', `${P}/triggers`, {}, 200],
    ['POST', `${P}/triggers`, { description: 'another' }, 201],
    ['POST', `${P}/environments`, { name: 'production' }, 201],
  ]
}

describe('an archived project', () => {
  it.each([
    ['an administrator', T.root],
    ['a maintainer', T.maintainer],
  ])(
    'refuses every write GitLab refuses to %s and changes nothing, reads stay open; unarchived, it writes again',
    async (_who, token) => {
      await setArchived(true)
      const before = everything()
      for (const [method, path, json, want] of refusedWrites()) {
        const res = await t.http(method, path, { token, json })
        expect({ method, path, status: res.status, body: res.body }).toEqual({ method, path, ...want })
      }
      expect(everything()).toEqual(before)
      for (const path of reads())
        expect([path, (await t.http('GET', path, { token })).status]).toEqual([path, 200])

      await setArchived(false)
      for (const [method, path, json, status] of writesAgain()) {
        const res = await t.http(method, path, { token, json })
        expect([method, path, res.status]).toEqual([method, path, status])
      }
    },
  )
})
