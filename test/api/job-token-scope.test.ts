import { collect, createClient, GitLabApiError } from '../../src/api/client.js'
import { pipelineSeed } from '../support/pipeline-seed.js'
import { serverEach } from '../support/server.js'

const t = serverEach(pipelineSeed)
const client = (token: string) =>
  createClient({
    baseUrl: t.baseUrl,
    token,
    validate: true,
    retry: { sleep: async () => undefined, maxRetries: 1 },
  })

describe('jobTokenScope client', () => {
  it('reads and sets the limit, and edits both allowlists, answers checked against their schemas', async () => {
    const mark = client('glpat-mark-token')
    const other = (await mark.projects.get('acme/other')).id
    const app = (await mark.projects.get('acme/app')).id
    const acme = (await mark.groups.get('acme')).id
    expect(await mark.jobTokenScope.get('acme/other')).toEqual({
      inbound_enabled: true,
      outbound_enabled: false,
    })
    await mark.jobTokenScope.update('acme/other', { enabled: false })
    expect((await mark.jobTokenScope.get(other)).inbound_enabled).toBe(false)

    expect(await mark.jobTokenScope.addProject(other, app)).toEqual({
      source_project_id: other,
      target_project_id: app,
    })
    const projects = await collect(mark.jobTokenScope.projects('acme/other', { perPage: 1 }))
    expect(projects.map((p) => p.path_with_namespace)).toEqual(['acme/other', 'acme/app'])
    expect(await mark.jobTokenScope.addGroup(other, acme)).toEqual({
      source_project_id: other,
      target_group_id: acme,
    })
    expect((await collect(mark.jobTokenScope.groups(other))).map((g) => g.id)).toEqual([acme])

    await mark.jobTokenScope.removeProject(other, app)
    await mark.jobTokenScope.removeGroup(other, acme)
    expect((await collect(mark.jobTokenScope.projects(other))).map((p) => p.id)).toEqual([other])
    expect(await collect(mark.jobTokenScope.groups(other))).toEqual([])

    const refused = client('glpat-dana-token').jobTokenScope.addProject(other, app)
    await expect(refused).rejects.toBeInstanceOf(GitLabApiError)
    await expect(refused).rejects.toMatchObject({ status: 403 })
  })
})
