/*
 * A real GitLab client against the reference server: @gitbeaker/rest (a dev dependency) drives the
 * surface the way its users do, and must not notice it is not GitLab. It reads pagination from the
 * headers, sends forms as multipart/form-data, and turns error bodies into its own errors.
 */
import { Gitlab } from '@gitbeaker/rest'
import { serverEach } from '../support/server.js'
import { refusal } from '../support/gitbeaker.js'

const TRIGGER = 'glptt-0123456789abcdef0123'
const seed = `
users:
  - { username: root, name: Administrator, admin: true, token: glpat-root-token }
  - { username: alice, name: Alice, token: glpat-alice-token }
  - { username: otto, name: Otto, token: glpat-otto-token }
groups:
  - { path: acme, name: ACME, visibility: private, members: { alice: maintainer } }
projects:
  - path: acme/widgets
    visibility: private
    labels: [ { name: bug, color: "#d9534f" } ]
    triggers: [ { description: deploy, owner: alice, token: ${TRIGGER} } ]
    issues:
      - { title: First, author: alice, labels: [bug], created_at: 2026-01-01T10:00:00.000Z }
      - { title: Second, author: alice, created_at: 2026-01-02T10:00:00.000Z }
      - { title: Third, author: alice, created_at: 2026-01-03T10:00:00.000Z }
`
const P = 'acme/widgets'

const t = serverEach(seed)
let alice: InstanceType<typeof Gitlab>
beforeEach(() => {
  alice = new Gitlab({ host: t.baseUrl, token: 'glpat-alice-token' })
})

describe('@gitbeaker/rest against the reference server', () => {
  it('pages through issues by the offset headers and by keyset links', async () => {
    const first = await alice.Issues.all({ projectId: P, perPage: 2, maxPages: 1, showExpanded: true })
    expect(first.data.map((i) => i.iid)).toEqual([3, 2])
    expect(first.paginationInfo).toEqual({
      total: 3,
      next: 2,
      current: 1,
      previous: null,
      perPage: 2,
      totalPages: 2,
    })
    expect((await alice.Issues.all({ projectId: P, perPage: 1 })).map((i) => i.iid)).toEqual([3, 2, 1])
    const keyset = await alice.Issues.all({
      projectId: P,
      perPage: 1,
      pagination: 'keyset',
      orderBy: 'created_at',
      sort: 'asc',
    })
    expect(keyset.map((i) => i.iid)).toEqual([1, 2, 3])
  })

  it('creates, reads, edits and deletes an issue, and reads refusals from the error bodies', async () => {
    const created = await alice.Issues.create(P, 'From gitbeaker', { labels: 'bug,new', description: 'hi' })
    expect([created.iid, created.labels, created.state]).toEqual([4, ['bug', 'new'], 'opened'])
    const edited = await alice.Issues.edit(P, 4, { stateEvent: 'close', addLabels: 'x' })
    expect([edited.state, edited.labels]).toEqual(['closed', ['bug', 'new', 'x']])
    expect((await alice.Issues.show(4, { projectId: P })).title).toBe('From gitbeaker')
    expect(await refusal(alice.Issues.show(99, { projectId: P }))).toEqual([404, '404 Not found'])
    expect(await refusal(alice.Issues.create(P, ''))).toEqual([400, '{"title":["can\'t be blank"]}'])
    const otto = new Gitlab({ host: t.baseUrl, token: 'glpat-otto-token' })
    expect(await refusal(otto.Issues.all({ projectId: P }))).toEqual([404, '404 Project Not Found'])
    const root = new Gitlab({ host: t.baseUrl, token: 'glpat-root-token' })
    await root.Issues.remove(P, 4)
    expect(await refusal(alice.Issues.show(4, { projectId: P }))).toEqual([404, '404 Not found'])
  })

  it('creates labels and milestones, files an issue under them and lists it by them', async () => {
    const label = await alice.ProjectLabels.create(P, 'api made', 'teal', {
      description: 'Made',
      priority: 1,
    })
    expect(label).toMatchObject({ name: 'api made', color: '#008080', priority: 1, subscribed: false })
    const renamed = await alice.ProjectLabels.edit(P, label.id, { newName: 'triage', description: 'Renamed' })
    expect([renamed.name, renamed.description]).toEqual(['triage', 'Renamed'])
    expect((await alice.ProjectLabels.show(P, 'triage')).id).toBe(label.id)
    expect(await refusal(alice.ProjectLabels.create(P, 'bug', '#000000'))).toEqual([
      409,
      'Label already exists',
    ])
    expect(await refusal(alice.ProjectLabels.create(P, 'x', 'nope'))).toEqual([
      400,
      '{"color":["must be a valid color code"]}',
    ])
    const milestone = await alice.ProjectMilestones.create(P, 'Sprint 1', { dueDate: '2026-12-31' })
    expect(milestone).toMatchObject({ iid: 1, title: 'Sprint 1', state: 'active', due_date: '2026-12-31' })
    const issue = await alice.Issues.create(P, 'Filed', { labels: 'triage', milestoneId: milestone.id })
    expect([issue.labels, (issue.milestone as { title: string }).title]).toEqual([['triage'], 'Sprint 1'])
    const assigned = await alice.ProjectMilestones.allAssignedIssues(P, milestone.id)
    expect(assigned.map((i) => i.title)).toEqual(['Filed'])
    const byBoth = await alice.Issues.all({ projectId: P, labels: 'triage', milestone: 'Sprint 1' })
    expect(byBoth.map((i) => i.iid)).toEqual([issue.iid])
    const closed = await alice.ProjectMilestones.edit(P, milestone.id, { stateEvent: 'close' })
    expect(closed.state).toBe('closed')
    expect((await alice.ProjectMilestones.all(P, { state: 'closed' })).map((m) => m.title)).toEqual([
      'Sprint 1',
    ])
    await alice.ProjectLabels.remove(P, 'triage')
    await alice.ProjectMilestones.remove(P, milestone.id)
    expect(await refusal(alice.ProjectMilestones.show(P, milestone.id))).toEqual([404, '404 Not found'])
    const after = await alice.Issues.show(issue.iid, { projectId: P })
    expect([after.labels, after.milestone]).toEqual([[], null])
  })

  it('creates group labels and milestones, files an issue under them and promotes a project label', async () => {
    const label = await alice.GroupLabels.create('acme', 'team', '#123456', { description: 'Whole group' })
    expect(label).toMatchObject({
      name: 'team',
      color: '#123456',
      description: 'Whole group',
      subscribed: false,
    })
    expect((await alice.GroupLabels.show('acme', 'team')).id).toBe(label.id)
    expect(await refusal(alice.GroupLabels.create('acme', 'team', '#000000'))).toEqual([
      409,
      'Label already exists',
    ])
    const milestone = await alice.GroupMilestones.create('acme', 'Q3', { dueDate: '2026-09-30' })
    expect(milestone).toMatchObject({ iid: 1, title: 'Q3', state: 'active', due_date: '2026-09-30' })
    expect((await alice.GroupMilestones.all('acme')).map((m) => m.title)).toEqual(['Q3'])
    const issue = await alice.Issues.create(P, 'Group filed', { labels: 'team', milestoneId: milestone.id })
    expect([issue.labels, (issue.milestone as unknown as { group_id: number }).group_id]).toEqual([
      ['team'],
      milestone.group_id,
    ])
    const listed = await alice.ProjectLabels.all(P)
    expect(listed.map((l) => [l.name, l.is_project_label])).toEqual([
      ['bug', true],
      ['team', false],
    ])
    const promoted = await alice.ProjectLabels.promote(P, 'bug')
    expect(promoted).toMatchObject({ name: 'bug', color: '#d9534f' })
    expect((await alice.GroupLabels.all('acme')).map((l) => l.name)).toEqual(['bug', 'team'])
  })

  it('comments and tracks time, and lists the notes with their system notes', async () => {
    expect((await alice.IssueNotes.create(P, 1, 'a note')).body).toBe('a note')
    expect(await alice.Issues.addSpentTime(P, 1, '1h30m')).toMatchObject({
      total_time_spent: 5400,
      human_total_time_spent: '1h 30m',
    })
    expect(await alice.Issues.addTimeEstimate(P, 1, '3h')).toMatchObject({ human_time_estimate: '3h' })
    const notes = await alice.IssueNotes.all(P, 1, { sort: 'asc' })
    expect(notes.map((n) => [n.system, n.body])).toEqual([
      [false, 'a note'],
      [true, 'added 1h 30m of time spent'],
      [true, 'changed time estimate to 3h'],
    ])
  })

  it('triggers a pipeline with variables sent as multipart form fields', async () => {
    const pipeline = await alice.PipelineTriggerTokens.trigger(P, 'main', TRIGGER, {
      variables: { DEPLOY_ENV: 'staging', DRY_RUN: 'true' },
    })
    expect([pipeline.status, pipeline.source, pipeline.ref]).toEqual(['created', 'trigger', 'main'])
    const variables = await alice.Pipelines.allVariables(P, pipeline.id)
    expect(variables.filter((v) => v.key !== 'TRIGGER_PAYLOAD')).toEqual([
      { variable_type: 'env_var', key: 'DEPLOY_ENV', value: 'staging' },
      { variable_type: 'env_var', key: 'DRY_RUN', value: 'true' },
    ])
    expect((await alice.Pipelines.all(P)).map((p) => p.id)).toEqual([pipeline.id])
  })

  it('exports, downloads and imports a project through the archive', async () => {
    // gitbeaker paces export calls as GitLab limits them (6 a minute), so the waiting is done raw.
    const waitFor = async (path: string, key: string, done: string[]) => {
      let value = ''
      for (let i = 0; i < 500 && !done.includes(value); i++)
        value = ((await t.http('GET', path, { token: 'glpat-alice-token' })).body as Record<string, string>)[
          key
        ]!
      return value
    }
    // gitbeaker's types ask for an upload config, which GitLab and gitbeaker itself do without.
    expect(await alice.ProjectImportExports.scheduleExport(P, undefined as never)).toEqual({
      message: '202 Accepted',
    })
    await waitFor('/api/v4/projects/acme%2Fwidgets/export', 'export_status', ['finished', 'failed'])
    expect(await alice.ProjectImportExports.showExportStatus(P)).toMatchObject({
      path_with_namespace: P,
      export_status: 'finished',
    })
    const archive = await alice.ProjectImportExports.download(P)
    expect(archive.size).toBeGreaterThan(0)
    const imported = await alice.ProjectImportExports.import(
      { content: archive, filename: 'widgets_export.tar.gz' },
      'copy',
      { namespace: 'acme', name: 'Copy' },
    )
    expect(imported).toMatchObject({ path_with_namespace: 'acme/copy', import_status: 'scheduled' })
    await waitFor('/api/v4/projects/acme%2Fcopy/import', 'import_status', ['finished', 'failed'])
    expect(await alice.ProjectImportExports.showImportStatus('acme/copy')).toMatchObject({
      import_status: 'finished',
      failed_relations: [],
    })
    const copied = await alice.Issues.all({ projectId: 'acme/copy' })
    expect(copied.map((i) => [i.iid, i.title])).toEqual([
      [3, 'Third'],
      [2, 'Second'],
      [1, 'First'],
    ])
  })

  it('links issues, and refuses a second link the way GitLab does', async () => {
    const link = await alice.IssueLinks.create(P, 1, P, 2, { linkType: 'blocks' })
    expect(link).toMatchObject({ source_issue: { iid: 1 }, target_issue: { iid: 2 }, link_type: 'blocks' })
    const related = await alice.IssueLinks.all(P, 2)
    expect(related.map((r) => [r.iid, r.link_type])).toEqual([[1, 'is_blocked_by']])
    expect(await refusal(alice.IssueLinks.create(P, 2, P, 1))).toEqual([409, 'Issue(s) already assigned'])
    await alice.IssueLinks.remove(P, 1, related[0]!.issue_link_id as number)
    expect(await alice.IssueLinks.all(P, 1)).toEqual([])
  })

  it('awards emoji on issues and notes; upvotes follow', async () => {
    const up = await alice.IssueAwardEmojis.award(P, 1, 'thumbsup')
    expect(up).toMatchObject({ name: 'thumbsup', awardable_type: 'Issue' })
    expect((await alice.Issues.show(1, { projectId: P })).upvotes).toBe(1)
    expect((await alice.IssueAwardEmojis.all(P, 1)).map((a) => a.name)).toEqual(['thumbsup'])
    expect(await refusal(alice.IssueAwardEmojis.award(P, 1, 'thumbsup'))).toEqual([
      404,
      '404 Award Emoji ["Name has already been taken"] Not Found',
    ])
    await alice.IssueAwardEmojis.remove(P, 1, up.id)
    expect((await alice.Issues.show(1, { projectId: P })).upvotes).toBe(0)

    const note = await alice.IssueNotes.create(P, 1, 'Looks good')
    const tada = await alice.IssueNoteAwardEmojis.award(P, 1, note.id, 'tada')
    expect(tada).toMatchObject({ name: 'tada', awardable_type: 'Note', awardable_id: note.id })
    expect((await alice.IssueNoteAwardEmojis.all(P, 1, note.id)).map((a) => a.name)).toEqual(['tada'])
  })

  it('starts a discussion, replies and reads it back', async () => {
    const thread = await alice.IssueDiscussions.create(P, 1, 'Shall we?')
    expect(thread).toMatchObject({
      individual_note: false,
      notes: [{ body: 'Shall we?', type: 'DiscussionNote' }],
    })
    const reply = await alice.IssueDiscussions.addNote(P, 1, thread.id, 'Yes')
    expect(reply).toMatchObject({ body: 'Yes', type: 'DiscussionNote' })
    const all = await alice.IssueDiscussions.all(P, 1)
    expect(all.map((d) => (d.notes as { body: string }[]).map((n) => n.body))).toEqual([['Shall we?', 'Yes']])
    const edited = await alice.IssueDiscussions.editNote(P, 1, thread.id, reply.id, { body: 'Yes!' })
    expect(edited).toMatchObject({ body: 'Yes!' })
    await alice.IssueDiscussions.removeNote(P, 1, thread.id, reply.id)
    expect((await alice.IssueDiscussions.show(P, 1, thread.id)).notes).toHaveLength(1)
  })

  it('makes project access and impersonation tokens that sign in, and runs as another user with sudo', async () => {
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)
    const token = await alice.ProjectAccessTokens.create(P, 'deploy', ['api'], inDays(30), {
      accessLevel: 30,
    })
    expect(token).toMatchObject({ name: 'deploy', access_level: 30, resource_type: 'project', active: true })
    const bot = new Gitlab({ host: t.baseUrl, token: token.token as string })
    expect(await bot.Users.showCurrentUser()).toMatchObject({ id: token.user_id, bot: true })
    expect((await alice.ProjectAccessTokens.all(P)).map((x) => x.id)).toEqual([token.id])
    expect(await alice.ProjectAccessTokens.show(P, token.id)).toMatchObject({
      id: token.id,
      access_level: 30,
    })
    await alice.ProjectAccessTokens.revoke(P, token.id)
    expect(await refusal(bot.Users.showCurrentUser())).toEqual([401, '401 Unauthorized'])

    const root = new Gitlab({ host: t.baseUrl, token: 'glpat-root-token' })
    const otto = (await root.Users.all({ username: 'otto' }))[0]!
    const made = await root.UserImpersonationTokens.create(otto.id, 'support', ['api'], {
      expiresAt: inDays(30),
    })
    expect(made).toMatchObject({ impersonation: true, user_id: otto.id, active: true })
    expect((await root.UserImpersonationTokens.all(otto.id, { state: 'active' })).map((x) => x.id)).toEqual([
      made.id,
    ])
    const asOtto = new Gitlab({ host: t.baseUrl, token: made.token as string })
    expect(await asOtto.Users.showCurrentUser()).toMatchObject({ username: 'otto' })
    await root.UserImpersonationTokens.revoke(otto.id, made.id)
    expect(await refusal(asOtto.Users.showCurrentUser())).toEqual([401, '401 Unauthorized'])

    const sudo = new Gitlab({ host: t.baseUrl, token: 'glpat-root-token', sudo: 'alice' })
    expect(await sudo.Users.showCurrentUser()).toMatchObject({ username: 'alice' })
    expect(await root.Users.showCurrentUser({ sudo: otto.id })).toMatchObject({ username: 'otto' })
    const notAdmin = new Gitlab({ host: t.baseUrl, token: 'glpat-otto-token', sudo: 'alice' })
    expect(await refusal(notAdmin.Users.showCurrentUser())).toEqual([
      403,
      '403 Forbidden - Must be admin to use sudo',
    ])
  })

  it('adds, edits and removes a project member; the access follows; lists group members', async () => {
    const root = new Gitlab({ host: t.baseUrl, token: 'glpat-root-token' })
    const otto = new Gitlab({ host: t.baseUrl, token: 'glpat-otto-token' })
    const ottoId = (await otto.Users.showCurrentUser()).id
    expect(await refusal(otto.Projects.show(P))).toEqual([404, '404 Project Not Found'])
    const added = await alice.ProjectMembers.add(P, 20, { userId: ottoId, expiresAt: '2099-12-31' })
    expect([added.username, added.access_level, added.expires_at]).toEqual(['otto', 20, '2099-12-31'])
    expect((await otto.Projects.show(P)).path_with_namespace).toBe(P)
    expect(await refusal(alice.ProjectMembers.add(P, 20, { userId: ottoId }))).toEqual([
      409,
      'Member already exists',
    ])
    const edited = await alice.ProjectMembers.edit(P, ottoId, 30)
    expect([edited.access_level, edited.expires_at]).toEqual([30, '2099-12-31'])
    expect((await alice.ProjectMembers.all(P)).map((m) => m.username)).toEqual(['otto'])
    const inherited = await alice.ProjectMembers.all(P, { includeInherited: true })
    expect(inherited.map((m) => [m.username, m.access_level])).toEqual([
      ['alice', 40],
      ['otto', 30],
    ])
    const group = await root.GroupMembers.all('acme')
    expect(group.map((m) => [m.username, m.access_level])).toEqual([['alice', 40]])
    await alice.ProjectMembers.remove(P, ottoId)
    expect(await refusal(otto.Projects.show(P))).toEqual([404, '404 Project Not Found'])
  })
})
