import { createClient, GitLabApiError } from '../../src/api/client.js'
import { startServer, type TestServer } from '../support/server.js'
import { versionsSeed, vt } from '../support/versions-seed.js'

/** The deprecated registration-token calls, and the client's one-time warning per removed feature. */
describe.each([
  ['16.11.0', false, false],
  ['17.11.0', false, true],
  ['18.6.0', true, true],
])('runners on GitLab %s', (gitlabVersion, resetGone, registerGone) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startServer(versionsSeed, { gitlabVersion })
  })
  afterAll(() => t.close())

  it(`reset is ${resetGone ? 'gone (410) with one warning' : 'there, without a warning'}`, async () => {
    const warnings: string[] = []
    const client = createClient({
      baseUrl: t.baseUrl,
      token: vt.maintainer,
      onDeprecation: (m) => warnings.push(m),
    })
    for (let i = 0; i < 2; i++) {
      const result = await client.runners
        .resetProjectRegistrationToken('acme/widgets')
        .catch((e: unknown) => e)
      if (resetGone) expect(result).toMatchObject({ status: 410 })
      else expect(result).toMatchObject({ token: expect.stringMatching(/^GR1348941/) })
    }
    expect(warnings).toHaveLength(resetGone ? 1 : 0)
    if (resetGone) expect(warnings[0]).toContain(`removed in GitLab 18.0 (this server runs ${gitlabVersion}`)
    await client.close()
  })

  it(`registration with a token is ${registerGone ? 'gone with one warning' : 'there'}`, async () => {
    const warnings: string[] = []
    const admin = createClient({ baseUrl: t.baseUrl, token: vt.root, onDeprecation: (m) => warnings.push(m) })
    const attempt = await admin.runners
      .register({ token: 'not-a-registration-token' })
      .catch((e: unknown) => e)
    expect(attempt).toBeInstanceOf(GitLabApiError)
    expect((attempt as GitLabApiError).status).toBe(registerGone ? 410 : 403)
    expect(warnings).toHaveLength(registerGone ? 1 : 0)
    if (!registerGone) {
      const { token } = await admin.runners.resetInstanceRegistrationToken()
      const runner = await admin.runners.register({ token, description: 'ci' })
      expect(runner).toMatchObject({ id: expect.any(Number), token: expect.any(String) })
    }
    await admin.close()
  })
})
