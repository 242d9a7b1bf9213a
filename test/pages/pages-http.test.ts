import { request } from 'undici'
import { exportSettled } from '../support/imports.js'
import { tokens } from '../support/seeds.js'
import { startServer, type Reply, type TestServer } from '../support/server.js'
import { PAGES_TRIGGER, pagesSeed } from './seed.js'

/** The pages over plain HTTP: status, content type, escaping, access and the session's boundaries. */
let t: TestServer
beforeAll(async () => {
  // Downloads unlimited (GitLab's default is one a minute, failed ones included).
  t = await startServer(pagesSeed, { transfers: { rateLimits: { project_download_export: 0 } } })
})
afterAll(() => t.close())

const P = '/api/v4/projects/acme%2Fwidgets'
const cookieOf = (res: Reply) => /_gitlab_session=[^;]+/.exec(res.headers['set-cookie'] ?? '')?.[0]
const signIn = async (token: string) => {
  const res = await t.http('POST', '/users/sign_in', {
    form: `token=${encodeURIComponent(token)}&redirect_to=%2Facme%2Fplatform%2Fsecret`,
  })
  expect(res.status).toBe(303)
  return cookieOf(res)!
}
const get = (path: string, cookie?: string) => t.http('GET', path, cookie ? { headers: { cookie } } : {})
/** The `<h1>`s of a page, as text. */
const h1 = (res: Reply) => [...res.text.matchAll(/<h1>\s*([\s\S]*?)\s*<\/h1>/g)].map((m) => m[1])
/** A page's markup with its white space runs made one space, and none between tags. */
const flat = (res: Reply) => res.text.replace(/\s+/g, ' ').replace(/ >/g, '>').replace(/> </g, '><')

describe('pages', () => {
  it('serve the web_url of an issue as HTML, every value from the store escaped', async () => {
    const issue = (await t.http('GET', `${P}/issues/1`)).body as { web_url: string }
    const path = new URL(issue.web_url).pathname
    expect(path).toBe('/acme/widgets/-/issues/1')
    const res = await get(path)
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.headers['content-security-policy']).toContain("default-src 'none'")
    expect(res.headers['cache-control']).toBe('no-store')
    expect(h1(res)).toEqual(['&lt;script&gt;alert(1)&lt;/script&gt; Crash'])
    expect(res.text).not.toContain('<script')
    expect(res.text).not.toContain('<img')
    expect(flat(res)).toContain('<p>First line<br />second &lt;img src=x onerror=alert(2)&gt;</p>')
    expect(flat(res)).toContain('<p>New paragraph</p>')
    expect(flat(res)).toMatch(
      /<span class="label" style="background-color:#d9534f;color:#FFFFFF">bug<\/span>/,
    )
    expect(flat(res)).toContain('<dt>Milestone</dt><dd>v1.0</dd>')
    expect(flat(res)).toContain('<dt>Time estimate</dt><dd>3h</dd>')
    expect(flat(res)).toContain('<dt>Time spent</dt><dd>1h 30m</dd>')
    expect(res.text).toMatch(/<html lang="en">/)
    // GitLab's titles join their parts with the character itself, as its HTML writes it.
    expect(res.text).toMatch(/<title>[^<]+ · GitLab<\/title>/)
    expect(res.text).not.toContain('&middot;')
  })

  it('show notes in order, system notes apart, to anonymous visitors of a public issue', async () => {
    const note = await t.http('POST', `${P}/issues/1/notes`, {
      token: tokens.developer,
      json: { body: 'A comment with <em>markup</em>' },
    })
    expect(note.status).toBe(201)
    await t.http('PUT', `${P}/issues/1`, { token: tokens.developer, json: { title: 'Renamed <b>' } })
    const res = await get('/acme/widgets/-/issues/1')
    const comment = flat(res).indexOf('A comment with &lt;em&gt;markup&lt;/em&gt;')
    const system = flat(res).search(/<li class="system"[^>]*><span class="muted">System note:<\/span>/)
    expect(comment).toBeGreaterThan(0)
    expect(system).toBeGreaterThan(comment)
    expect(h1(res)).toEqual(['Renamed &lt;b&gt;'])
    expect(flat(res)).toMatch(/commented · <time datetime="[^"]+">/)
    expect(res.text).not.toContain('&middot;')
  })

  it('list issues by state, with labels and a link to each', async () => {
    const open = await get('/acme/widgets/-/issues')
    expect(open.status).toBe(200)
    expect(open.text).toContain('href="/acme/widgets/-/issues/1"')
    expect(open.text).not.toContain('Closed one')
    const closed = await get('/acme/widgets/-/issues?state=closed')
    expect(closed.text).toContain('Closed one')
    expect(closed.text).not.toContain('href="/acme/widgets/-/issues/1"')
    const all = await get('/acme/widgets/-/issues?state=all')
    expect(flat(all)).toContain('2 issues')
    // An unknown state is the default, not an error.
    expect(flat(await get('/acme/widgets/-/issues?state=%3Cx%3E'))).toContain('1 issue<')
  })

  it('serve the project, group, user, pipeline and job pages', async () => {
    const project = await get('/acme/widgets')
    expect(project.status).toBe(200)
    expect(project.text).toContain('Widgets &lt;b&gt;for&lt;/b&gt; everyone')
    expect(flat(project)).toContain('<dt>Visibility</dt><dd>public</dd>')
    expect(project.text).toContain('href="/acme/widgets/-/issues"')
    const group = await get('/groups/acme')
    expect(group.text).toContain('href="/groups/acme/platform"')
    expect(group.text).toContain('href="/acme/widgets"')
    expect(group.text).not.toContain('secret')
    expect((await get('/acme')).status).toBe(200)
    const user = await get('/dana')
    expect(h1(user)).toEqual(['Dana Developer'])

    const made = await t.http('POST', `${P}/trigger/pipeline`, { form: `ref=main&token=${PAGES_TRIGGER}` })
    expect(made.status).toBe(201)
    const { web_url, id } = made.body as { web_url: string; id: number }
    const pipeline = await get(new URL(web_url).pathname)
    expect(h1(pipeline)).toEqual([`Pipeline #${id}`])
    const jobs = (await t.http('GET', `${P}/pipelines/${id}/jobs`)).body as { id: number; web_url: string }[]
    expect(jobs).toHaveLength(2)
    for (const job of jobs) expect(pipeline.text).toContain(`href="${new URL(job.web_url).pathname}"`)
    const job = await get(new URL(jobs[0]!.web_url).pathname)
    expect(job.status).toBe(200)
    expect(job.text).toContain(`href="/acme/widgets/-/pipelines/${id}"`)

    // With public_jobs off the pages follow the API: hidden (404 pages) from visitors below Reporter.
    const publicJobs = (on: boolean) => t.http('PUT', P, { token: tokens.root, json: { public_jobs: on } })
    expect((await publicJobs(false)).status).toBe(200)
    const pages = [new URL(web_url).pathname, new URL(jobs[0]!.web_url).pathname, '/acme/widgets/-/pipelines']
    for (const path of pages) expect((await get(path)).status).toBe(404)
    const root = await signIn(tokens.root)
    for (const path of pages) expect((await get(path, root)).status).toBe(200)
    expect((await publicJobs(true)).status).toBe(200)
  })

  it("serve a milestone's web_url with its issues", async () => {
    const [milestone] = (await t.http('GET', `${P}/milestones`, { token: tokens.developer })).body as {
      web_url: string
    }[]
    const res = await get(new URL(milestone!.web_url).pathname)
    expect(res.status).toBe(200)
    expect(h1(res)).toEqual(['v1.0'])
    expect(res.text).toContain('href="/acme/widgets/-/issues/1"')
    expect(res.text).not.toContain('Closed one')
    expect((await get('/acme/widgets/-/milestones/9')).status).toBe(404)
  })

  it("show the export status to Maintainers and serve the finished archive at the status' web_url", async () => {
    const root = await signIn(tokens.root)
    expect((await get('/acme/widgets/edit')).status).toBe(404)
    expect((await get('/acme/widgets/edit', await signIn(tokens.developer))).status).toBe(404)
    const none = await get('/acme/widgets/edit', root)
    expect(none.status).toBe(200)
    expect(flat(none)).toContain('<span class="status status-none">none</span>')
    expect((await get('/acme/widgets/download_export', root)).status).toBe(404)

    expect((await t.http('POST', `${P}/export`, { token: tokens.root })).status).toBe(202)
    const status = await exportSettled(t, P, tokens.root)
    expect(status.export_status).toBe('finished')
    const web = new URL((status._links as { web_url: string }).web_url).pathname
    expect(web).toBe('/acme/widgets/download_export')
    expect(await get('/acme/widgets/edit', root)).toMatchObject({
      status: 200,
      text: expect.stringContaining(`href="${web}"`),
    })
    expect((await get(web)).status).toBe(404)
    const archive = await request(`${t.baseUrl}${web}`, { headers: { cookie: root } })
    const bytes = Buffer.from(await archive.body.arrayBuffer())
    expect([archive.statusCode, archive.headers['content-type']]).toEqual([200, 'application/octet-stream'])
    expect(String(archive.headers['content-disposition'])).toMatch(
      /^attachment; filename=".+_acme_widgets_export\.tar\.gz"/,
    )
    expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]))
    expect(Number(archive.headers['content-length'])).toBe(bytes.length)
  })

  it('send the root and /explore to the projects one may see', async () => {
    for (const path of ['/', '/explore']) {
      const res = await get(path)
      expect([res.status, res.headers.location]).toEqual([302, '/explore/projects'])
    }
    const explore = await get('/explore/projects')
    expect(explore.text).toContain('href="/acme/widgets"')
    expect(explore.text).not.toContain('secret')
  })

  it('answer 404 pages for what is missing or hidden, and leave the API its JSON 404', async () => {
    for (const path of [
      '/acme/platform/secret',
      '/acme/platform/secret/-/issues',
      '/acme/platform/secret/-/issues/1',
      '/acme/widgets/-/issues/99',
      '/acme/widgets/-/jobs/999',
      '/acme/widgets/-/pipelines/999',
      '/acme/widgets/-/nothing',
      '/nobody',
      '/groups/nothing',
      '/-/emulator',
    ]) {
      const res = await get(path)
      expect([path, res.status, res.headers['content-type']]).toEqual([path, 404, 'text/html; charset=utf-8'])
      expect(h1(res)).toEqual(['Page not found'])
    }
    const api = await t.http('GET', '/api/v4/nothing/here')
    expect([api.status, api.body]).toEqual([404, { error: '404 Not Found' }])
  })

  it('sign a person in with a token into a signed HttpOnly SameSite=Strict cookie the API ignores', async () => {
    const refused = await t.http('POST', '/users/sign_in', { form: 'token=glpat-nope' })
    expect(refused.status).toBe(401)
    expect(refused.headers['set-cookie']).toBeUndefined()
    const res = await t.http('POST', '/users/sign_in', {
      form: `token=${tokens.developer}&redirect_to=%2F%2Fevil.example`,
    })
    expect(res.status).toBe(303)
    expect(res.headers.location).toBe('/explore/projects')
    expect(res.headers['set-cookie']).toMatch(
      /^_gitlab_session=[^;]+; Path=\/; Max-Age=604800; HttpOnly; SameSite=Strict$/,
    )
    const cookie = cookieOf(res)!
    // Only this server's paths, on one line: elsewhere and header breaks go to the default.
    for (const target of [
      '%2F%5Cevil.example',
      '%2Fx%0D%0ASet-Cookie%3A+a%3Db',
      'https%3A%2F%2Fevil.example',
    ]) {
      const other = await t.http('POST', '/users/sign_in', {
        form: `token=${tokens.developer}&redirect_to=${target}`,
      })
      expect([other.status, other.headers.location]).toEqual([303, '/explore/projects'])
    }
    const back = await t.http('POST', '/users/sign_in', {
      form: `token=${tokens.developer}&redirect_to=%2Facme%2Fwidgets%2F-%2Fissues%3Fstate%3Dall`,
    })
    expect(back.headers.location).toBe('/acme/widgets/-/issues?state=all')
    const secret = await get('/acme/platform/secret/-/issues/1', cookie)
    expect(secret.status).toBe(200)
    expect(h1(secret)).toEqual(['Hidden issue'])
    // A forged cookie is nobody; the API does not read the cookie at all.
    const forged = cookie.replace(/^_gitlab_session=\d+/, '_gitlab_session=1')
    expect((await get('/acme/platform/secret', forged)).status).toBe(404)
    const api = await t.http('GET', '/api/v4/projects/acme%2Fplatform%2Fsecret', { headers: { cookie } })
    expect([api.status, api.body]).toEqual([404, { message: '404 Project Not Found' }])
    // An outsider's session still sees nothing private.
    expect((await get('/acme/platform/secret', await signIn(tokens.outsider))).status).toBe(404)
  })

  it('show the emulator page to administrators only, and reset from its form with the CSRF token', async () => {
    expect((await get('/-/emulator', await signIn(tokens.developer))).status).toBe(404)
    const cookie = await signIn(tokens.root)
    await t.http('POST', `${P}/issues`, { token: tokens.root, json: { title: 'Made by the API' } })
    const page = await get('/-/emulator', cookie)
    expect(page.status).toBe(200)
    expect(flat(page)).toMatch(/<li data-count="issues"><strong>4<\/strong> Issues<\/li>/)
    expect(flat(page)).toContain('<dt>GitLab version</dt><dd>18.6.0</dd>')
    const csrf = /name="authenticity_token" value="([^"]+)"/.exec(page.text)![1]!

    // Without the token, with another session's token, or without the cookie: refused, nothing reset.
    const wrong = await t.http('POST', '/-/emulator/reset', {
      headers: { cookie },
      form: 'authenticity_token=x',
    })
    expect([wrong.status, wrong.body]).toEqual([422, { message: '422 Unprocessable Entity' }])
    const anonymous = await t.http('POST', '/-/emulator/reset', { form: `authenticity_token=${csrf}` })
    expect(anonymous.status).toBe(422)
    const crossSite = await t.http('POST', '/-/emulator/reset', {
      headers: { cookie, origin: 'http://evil.example' },
      form: `authenticity_token=${csrf}`,
    })
    expect(crossSite.status).toBe(403)
    expect(flat(await get('/-/emulator', cookie))).toContain('<strong>4</strong> Issues')

    const reset = await t.http('POST', '/-/emulator/reset', {
      headers: { cookie },
      form: `authenticity_token=${encodeURIComponent(csrf)}`,
    })
    expect([reset.status, reset.headers.location]).toEqual([303, '/-/emulator?reset=done'])
    expect(flat(await get('/-/emulator', cookie))).toContain('<strong>3</strong> Issues')
    // A session that is not an administrator's is refused with its own CSRF token.
    const dana = await signIn(tokens.developer)
    const danaCsrf = /name="authenticity_token" value="([^"]+)"/.exec(
      (await get('/acme/widgets', dana)).text,
    )![1]!
    const refused = await t.http('POST', '/-/emulator/reset', {
      headers: { cookie: dana },
      form: `authenticity_token=${encodeURIComponent(danaCsrf)}`,
    })
    expect([refused.status, refused.body]).toEqual([403, { message: '403 Forbidden' }])
    // The API's reset is unchanged.
    const api = await t.http('POST', '/-/emulator/reset', { token: tokens.root })
    expect([api.status, api.body]).toEqual([200, { message: 'reset' }])
  })
})
