/*
 * A suite written for a real GitLab builds its whole world through the API with @gitbeaker/rest,
 * from a fresh instance (`seed: 'none'`, only `root`): users and their tokens, a group and a
 * subgroup, memberships, a project, labels, milestones, issues, links, discussions and award emoji;
 * then a reporter reads what a reporter may and is refused the rest, and a maintainer exports the
 * project, imports it back and triggers a pipeline. Run twice around `reset()`: the same answers.
 */
import { Gitlab } from '@gitbeaker/rest'
import { startServer, type RunningServer } from '../../src/server/start/start-server.js'
import { refusal } from '../support/gitbeaker.js'
import { wholeWorldAnswers } from '../support/whole-world.js'

type Api = InstanceType<typeof Gitlab>
const MAINTAINER = 40
const REPORTER = 20
type Note = { author: { username: string }; body: string }
const CI_CONFIG = 'build:\n  script: echo build\n'

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await read()
    if (done(value)) return value
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('timed out waiting')
}

/** The suite: builds the world, exercises it, and returns what it saw, without tokens or times. */
async function suite(server: RunningServer) {
  const root = new Gitlab({ host: server.url, token: server.token! })
  const user = async (username: string) => {
    const made = await root.Users.create({
      email: `${username}@example.com`,
      username,
      name: username[0]!.toUpperCase() + username.slice(1),
      password: 'a-long-passphrase-1',
      skipConfirmation: true,
    })
    const token = await root.PersonalAccessTokens.create(made.id, 'suite', ['api'], {
      expiresAt: '2099-01-01',
    })
    return { id: made.id, api: new Gitlab({ host: server.url, token: token.token as string }) as Api }
  }
  const mia = await user('mia') // maintainer
  const rex = await user('rex') // reporter

  const group = await root.Groups.create('Acme', 'acme', { visibility: 'private' })
  const sub = await root.Groups.create('Backend', 'backend', { parentId: group.id, visibility: 'private' })
  await root.GroupMembers.add(group.id, REPORTER, { userId: rex.id })
  await root.GroupMembers.add(sub.id, MAINTAINER, { userId: mia.id })

  const project = await mia.api.Projects.create({
    name: 'Widgets',
    namespaceId: sub.id,
    visibility: 'private',
    initializeWithReadme: true,
  })
  const P = project.id
  await mia.api.ProjectLabels.create(P, 'bug', '#d9534f')
  await mia.api.ProjectLabels.create(P, 'feature', '#5cb85c')
  const milestone = await mia.api.ProjectMilestones.create(P, 'v1')
  const first = await mia.api.Issues.create(P, 'Crash on start', { labels: 'bug', milestoneId: milestone.id })
  const second = await mia.api.Issues.create(P, 'Dark mode', { labels: 'feature' })
  await mia.api.IssueLinks.create(P, first.iid, P, second.iid, { linkType: 'relates_to' })
  const thread = await mia.api.IssueDiscussions.create(P, first.iid, 'Seen on 1.2')
  const reply = await rex.api.IssueDiscussions.addNote(P, first.iid, thread.id, 'Me too')
  await rex.api.IssueAwardEmojis.award(P, first.iid, 'thumbsup')
  await mia.api.IssueNoteAwardEmojis.award(P, first.iid, reply.id, 'heart')

  // The reporter reads, and is refused what a reporter may not do.
  const seen = await rex.api.Issues.all({ projectId: P, orderBy: 'title', sort: 'asc' })
  const reporter = {
    issues: seen.map((i) => [i.iid, i.title, i.labels, i.upvotes]),
    links: (await rex.api.IssueLinks.all(P, first.iid)).map((i) => [i.iid, i.link_type]),
    thread: ((await rex.api.IssueDiscussions.show(P, first.iid, thread.id)).notes as Note[]).map((n) => [
      n.author.username,
      n.body,
    ]),
    note_emoji: (await rex.api.IssueNoteAwardEmojis.all(P, first.iid, reply.id)).map((e) => e.name),
    milestone_issues: (await rex.api.ProjectMilestones.allAssignedIssues(P, milestone.id)).map(
      (i) => i.title,
    ),
    label: (await rex.api.ProjectLabels.create(P, 'triage', '#000000')).name,
    remove: await refusal(rex.api.Issues.remove(P, second.iid)),
    trigger: await refusal(rex.api.PipelineTriggerTokens.create(P, 'mine')),
    export: await refusal(rex.api.ProjectImportExports.scheduleExport(P, undefined as never)),
  }

  // The maintainer exports the project, imports it beside it, and triggers a pipeline.
  await mia.api.ProjectImportExports.scheduleExport(P, undefined as never)
  await until(
    () => mia.api.ProjectImportExports.showExportStatus(P),
    (s) => s.export_status === 'finished',
  )
  const archive = await mia.api.ProjectImportExports.download(P)
  const imported = await mia.api.ProjectImportExports.import(
    { content: archive, filename: 'widgets.tar.gz' },
    'widgets-restored',
    { namespace: sub.id },
  )
  const restored = await until(
    () => mia.api.ProjectImportExports.showImportStatus(imported.id),
    (s) => s.import_status === 'finished' || s.import_status === 'failed',
  )
  // A project made through the API has no `.gitlab-ci.yml`: GitLab refuses the trigger until one is committed.
  const trigger = await mia.api.PipelineTriggerTokens.create(P, 'suite')
  const branch = project.default_branch as string
  // gitbeaker gives a structured message as its JSON text; python-gitlab as the object.
  const [status, text] = await refusal(
    mia.api.PipelineTriggerTokens.trigger(P, branch, trigger.token as string),
  )
  await mia.api.RepositoryFiles.create(P, '.gitlab-ci.yml', branch, CI_CONFIG, 'Add CI')
  const pipeline = await mia.api.PipelineTriggerTokens.trigger(P, branch, trigger.token as string)

  return {
    users: [mia.id, rex.id],
    groups: [group.full_path, sub.full_path, sub.parent_id === group.id],
    project: [project.id, project.path_with_namespace, project.default_branch],
    web_url: project.web_url,
    issues: [first.iid, second.iid],
    reporter,
    restored: [
      restored.import_status,
      (await mia.api.Issues.all({ projectId: imported.id, orderBy: 'title', sort: 'asc' })).map((i) => [
        i.iid,
        i.title,
        i.labels,
      ]),
    ],
    missing_config: [status, JSON.parse(text as string) as unknown],
    pipeline: [pipeline.ref, pipeline.source],
    members: (await root.ProjectMembers.all(P, { includeInherited: true }))
      .map((m) => [m.username, m.access_level])
      .sort(),
  }
}

let server: RunningServer
beforeAll(async () => {
  server = await startServer({ seed: 'none' })
})
afterAll(() => server.close())

it('builds the same world through the API twice around a reset, with the same answers', async () => {
  const first = await suite(server)
  await server.reset()
  const again = await suite(server)
  expect(again).toEqual(first)
  const { web_url, ...answers } = first
  expect(answers).toEqual(wholeWorldAnswers)
  expect(web_url).toBe(`${server.url}/acme/backend/Widgets`)
}, 120_000)
