import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { tarGzMembers } from '../../support/archive-members.js'
import { exportSettled, importFile, settled } from '../../support/imports.js'
import { startServer, type TestServer } from '../../support/server.js'

/*
 * Labels and milestones made through the API work wherever the seed's do: issue creation, the
 * issue lists' filters, quick actions, the export (and an import of it), and a reset forgets them.
 */

const ROOT = 'glpat-root-token'
const RITA = 'glpat-rita-token' // reporter
const P = '/api/v4/projects/acme%2Fapp'
const seed = `
users:
  - { username: root, admin: true, token: ${ROOT} }
  - { username: rita, token: ${RITA} }
groups:
  - { path: acme, visibility: private, members: { rita: reporter } }
projects:
  - path: acme/app
    visibility: private
    labels: [ { name: seeded, color: "#000000" } ]
    issues:
      - { title: Seeded issue, author: rita }
`
type Json = Record<string, unknown>
let t: TestServer
let tmp: string
beforeEach(async () => {
  t = await startServer(seed, { clock: { now: () => new Date('2026-03-01T10:00:00.000Z') } })
  tmp = mkdtempSync(join(tmpdir(), 'labels-in-use-'))
})
afterEach(async () => {
  await t.close()
  rmSync(tmp, { recursive: true, force: true })
})

const call = async (method: string, path: string, json?: Json, token = RITA) => {
  const res = await t.http(method, path, { token, json })
  expect([method, path, res.status]).toEqual([method, path, method === 'POST' ? 201 : 200])
  return res.body as Json
}
/** An API-made label (with a priority) and milestone. */
const world = async () => {
  const label = await call('POST', `${P}/labels`, { name: 'api made', color: 'teal', priority: 2 })
  const milestone = await call('POST', `${P}/milestones`, { title: 'Sprint 1', due_date: '2026-04-01' })
  return { label, milestone }
}
const titles = async (query: string, path = `${P}/issues`) =>
  ((await t.http('GET', path, { token: RITA, query })).body as Json[]).map((i) => i.title)

describe('API-made labels and milestones in use', () => {
  it('issues take them on create and through quick actions; the lists filter by them', async () => {
    const { milestone } = await world()
    const made = await call('POST', `${P}/issues`, {
      title: 'Made with both',
      labels: 'api made',
      milestone_id: milestone.id,
    })
    expect(made).toMatchObject({ labels: ['api made'], milestone: { id: milestone.id, title: 'Sprint 1' } })
    const note = await t.http('POST', `${P}/issues/1/notes`, {
      token: RITA,
      json: { body: '/label ~"api made"\n/milestone %"Sprint 1"' },
    })
    expect(note.status).toBe(202)
    expect(await call('GET', `${P}/issues/1`)).toMatchObject({
      labels: ['api made'],
      milestone: { title: 'Sprint 1' },
    })
    expect(await titles('labels=api made')).toEqual(['Made with both', 'Seeded issue'])
    expect(await titles('milestone=Sprint 1&labels=api made,seeded')).toEqual([])
    expect(await titles('scope=all&milestone=Sprint 1', '/api/v4/issues')).toEqual([
      'Made with both',
      'Seeded issue',
    ])
    const detailed = await t.http('GET', `${P}/issues`, {
      token: RITA,
      query: 'with_labels_details=true&iids[]=2',
    })
    expect(((detailed.body as Json[])[0] as Json).labels).toEqual([
      {
        id: expect.any(Number),
        name: 'api made',
        color: '#008080',
        description: null,
        description_html: '',
        text_color: '#FFFFFF',
      },
    ])
    // Renaming the label renames it on its issues and in the filters.
    await call('PUT', `${P}/labels/api%20made`, { new_name: 'renamed' })
    expect(await titles('labels=renamed')).toEqual(['Made with both', 'Seeded issue'])
    expect(await titles('labels=api made')).toEqual([])
  })

  it('the export carries them, and an import of it restores them with the priority', async () => {
    await world()
    await call('POST', `${P}/issues`, { title: 'Labelled', labels: 'api made' })
    expect((await t.http('POST', `${P}/export`, { token: ROOT })).status).toBe(202)
    await exportSettled(t, P, ROOT)
    const dl = await request(`${t.baseUrl}${P}/export/download`, { headers: { 'private-token': ROOT } })
    const archive = Buffer.from(await dl.body.arrayBuffer())
    const files = await tarGzMembers(archive)
    const lines = (name: string) =>
      (files.get(`./tree/project/${name}.ndjson`)?.body ?? '')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Json)
    const label = lines('labels').find((l) => l.title === 'api made') as Json
    expect(label).toMatchObject({ color: '#008080', type: 'ProjectLabel' })
    expect(label.priorities).toEqual([
      {
        project_id: expect.any(Number),
        priority: 2,
        created_at: '2026-03-01T10:00:00.000Z',
        updated_at: '2026-03-01T10:00:00.000Z',
      },
    ])
    expect(lines('milestones').map((m) => [m.iid, m.title, m.due_date])).toEqual([
      [1, 'Sprint 1', '2026-04-01'],
    ])
    const issue = lines('issues').find((i) => i.title === 'Labelled') as Json
    expect(issue.label_links).toMatchObject([{ label: { title: 'api made' } }])

    const file = join(tmp, 'export.tar.gz')
    writeFileSync(file, archive)
    const res = await importFile(t, file, { path: 'copy', namespace: 'acme' }, ROOT)
    expect(res.status).toBe(201)
    expect(await settled(t, res.body!.id, ROOT)).toMatchObject({ import_status: 'finished' })
    const copied = (await t.http('GET', '/api/v4/projects/acme%2Fcopy/labels', { token: ROOT }))
      .body as Json[]
    expect(copied.map((l) => [l.name, l.priority])).toEqual([
      ['api made', 2],
      ['seeded', null],
    ])
    const milestones = (await t.http('GET', '/api/v4/projects/acme%2Fcopy/milestones', { token: ROOT }))
      .body as Json[]
    expect(milestones.map((m) => m.title)).toEqual(['Sprint 1'])
  })

  it('a reset returns to the seed: API-made labels, milestones and subscriptions go', async () => {
    const { label } = await world()
    await call('POST', `${P}/labels/seeded/subscribe`)
    await t.server.reset()
    const labels = (await t.http('GET', `${P}/labels`, { token: RITA })).body as Json[]
    expect(labels.map((l) => [l.name, l.subscribed])).toEqual([['seeded', false]])
    expect((await t.http('GET', `${P}/milestones`, { token: RITA })).body).toEqual([])
    const gone = await t.http('GET', `${P}/labels/${label.id}`, { token: RITA })
    expect([gone.status, gone.body]).toEqual([404, { message: '404 Label Not Found' }])
    // Made again after the reset, they get the same ids and iids as the first time.
    const again = await world()
    expect([again.label.id, again.milestone.iid]).toEqual([label.id, 1])
  })
})
