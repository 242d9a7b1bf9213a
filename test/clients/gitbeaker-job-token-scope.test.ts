/*
 * The job token scope through gitbeaker's `ProjectJobTokenScopes` (`show`, `edit`, the inbound and groups
 * allowlists): a Maintainer lets acme/app's job tokens into acme/other, and a running job of acme/app
 * then reads acme/other's branches, which it could not before.
 */
import { Gitlab } from '@gitbeaker/rest'
import { manualClock, pipelineSeed, runningJobToken } from '../support/pipeline-seed.js'
import { serverEach } from '../support/server.js'

let clock: ReturnType<typeof manualClock>
const t = serverEach(pipelineSeed, () => ({ clock: (clock = manualClock()) }))

/** The token of the job a new acme/app pipeline runs a second after it starts. */
const runningToken = async () => (await runningJobToken(t, clock)).token

it('gitbeaker edits the scope and its allowlists; the job token follows them', async () => {
  const mark = new Gitlab({ host: t.baseUrl, token: 'glpat-mark-token' })
  const other = (await mark.Projects.show('acme/other')).id
  const app = (await mark.Projects.show('acme/app')).id
  const acme = (await mark.Groups.show('acme')).id
  const token = await runningToken()
  const branches = async () =>
    (
      await t.http('GET', '/api/v4/projects/acme%2Fother/repository/branches', {
        headers: { 'job-token': token },
      })
    ).status

  expect(await mark.ProjectJobTokenScopes.show(other)).toEqual({
    inbound_enabled: true,
    outbound_enabled: false,
  })
  expect(await branches()).toBe(404)

  expect(await mark.ProjectJobTokenScopes.addToInboundAllowList(other, app)).toEqual({
    source_project_id: other,
    target_project_id: app,
  })
  const inbound = await mark.ProjectJobTokenScopes.showInboundAllowList(other)
  expect(inbound.map((p) => p.id)).toEqual([other, app])
  expect(await branches()).toBe(200)
  await mark.ProjectJobTokenScopes.removeFromInboundAllowList(other, app)
  expect(await branches()).toBe(404)

  expect(await mark.ProjectJobTokenScopes.addToGroupsAllowList(other, acme)).toEqual({
    source_project_id: other,
    target_group_id: acme,
  })
  expect((await mark.ProjectJobTokenScopes.showGroupsAllowList(other)).map((g) => g.id)).toEqual([acme])
  expect(await branches()).toBe(200)
  await mark.ProjectJobTokenScopes.removeFromGroupsAllowList(other, acme)
  expect(await branches()).toBe(404)

  await mark.ProjectJobTokenScopes.edit(other, false)
  expect((await mark.ProjectJobTokenScopes.show(other)).inbound_enabled).toBe(false)
  expect(await branches()).toBe(200)
})
