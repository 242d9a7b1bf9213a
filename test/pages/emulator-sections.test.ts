import { get } from 'node:http'
import { tokens } from '../support/seeds.js'
import { startServer, type Reply, type TestServer } from '../support/server.js'
import { pagesSeed } from './seed.js'

/** The emulator page's request log and faults sections over plain HTTP: escaping, filters, forms, CSRF. */
let t: TestServer
let cookie: string
let csrf: string
beforeAll(async () => {
  t = await startServer(pagesSeed, { requestLog: { bodies: true } })
  const res = await t.http('POST', '/users/sign_in', {
    form: `token=${tokens.root}&redirect_to=%2F-%2Femulator`,
  })
  cookie = /_gitlab_session=[^;]+/.exec(res.headers['set-cookie'] ?? '')![0]
  csrf = /name="authenticity_token" value="([^"]+)"/.exec((await page()).text)![1]!
})
afterAll(() => t.close())
beforeEach(async () => {
  await t.http('DELETE', '/-/emulator/faults', { token: tokens.root })
  await t.http('DELETE', '/-/emulator/requests', { token: tokens.root })
})

const P = '/api/v4/projects/acme%2Fwidgets'
const page = (query = '', as = cookie) => t.http('GET', `/-/emulator${query}`, { headers: { cookie: as } })
/** A page's markup with its white space runs made one space, and none between tags. */
const flat = (res: Reply) => res.text.replace(/\s+/g, ' ').replace(/ >/g, '>').replace(/> </g, '><')
/** The request log table's rows (their `<td>`s' text), newest first. */
const logRows = (res: Reply) => {
  const section = /<section id="requests"[\s\S]*?<\/section>/.exec(res.text)![0]
  return [...section.matchAll(/<tr>\s*(<td>[\s\S]*?)<\/tr>/g)].map((m) =>
    [...m[1]!.matchAll(/<td>([\s\S]*?)<\/td>/g)].map((c) => c[1]!.replace(/<[^>]+>/g, '').trim()),
  )
}
const post = (path: string, form: string, as = cookie) =>
  t.http('POST', path, {
    headers: { cookie: as },
    form: `authenticity_token=${encodeURIComponent(csrf)}&${form}`,
  })
/** A GET whose path is sent byte for byte. */
const rawGet = (path: string) =>
  new Promise<number>((done, fail) => {
    const { hostname, port } = new URL(t.baseUrl)
    get({ hostname, port, path }, (res) => {
      res.resume()
      res.on('end', () => done(res.statusCode!))
    }).on('error', fail)
  })
const rules = async () => (await t.http('GET', '/-/emulator/faults', { token: tokens.root })).body as object[]

describe('the request log section', () => {
  it('lists the latest requests newest first, every logged value escaped, bodies in <pre>', async () => {
    await t.http('GET', `${P}/issues`, { token: tokens.developer, query: 'state=opened' })
    // Sent as it is (undici would percent-encode it): Node's client lets `<` through.
    await rawGet('/api/v4/<script>alert(1)</script>?q=<b>')
    await t.http('POST', `${P}/issues`, { token: tokens.developer, json: { title: '<i>new</i>' } })
    const res = await page()
    expect(res.status).toBe(200)
    const rows = logRows(res)
    expect(rows.map((r) => r.slice(1, 4))).toEqual([
      ['POST', '/api/v4/projects/acme%2Fwidgets/issues', '201'],
      ['GET', '/api/v4/&lt;script&gt;alert(1)&lt;/script&gt;?q=&lt;b&gt;', '404'],
      ['GET', '/api/v4/projects/acme%2Fwidgets/issues?state=opened', '200'],
    ])
    expect(rows[0]).toEqual([
      expect.stringMatching(/^\d+$/),
      'POST',
      '/api/v4/projects/acme%2Fwidgets/issues',
      '201',
      expect.stringMatching(/^\d+\.\d ms$/),
      'dana',
      '/api/v4/projects/:id/issues',
      'none',
      expect.stringMatching(/\S/),
    ])
    expect(res.text).not.toMatch(/<script|<b>|<i>/)
    // The page shows the log and, as the log's own reads, is not kept in it.
    const kept = (await t.http('GET', '/-/emulator/requests', { token: tokens.root })).body as {
      path: string
    }[]
    expect(kept.map((e) => e.path)).not.toContain('/-/emulator')
    expect(kept).toHaveLength(3)
    expect(flat(res)).toContain('<caption class="muted"> Requests, newest first </caption>')
    // With --log-bodies, the bodies are escaped in <pre>.
    expect(flat(res)).toContain(
      '<pre class="trace">{&quot;title&quot;:&quot;&lt;i&gt;new&lt;/i&gt;&quot;}</pre>',
    )
  })

  it('filters by method, path pattern, status and actor with the JSON route’s own filters', async () => {
    await t.http('GET', `${P}/issues`, { token: tokens.developer })
    await t.http('GET', `${P}/issues/99`, { token: tokens.developer })
    await t.http('GET', '/api/v4/projects', { token: tokens.outsider })
    await t.http('POST', `${P}/issues`, { token: tokens.developer, json: { title: 'x' } })
    const paths = async (query: string) => logRows(await page(query)).map((r) => `${r[1]} ${r[2]} ${r[3]}`)
    expect(await paths('?status=404')).toEqual([`GET ${P}/issues/99 404`])
    expect(await paths('?status=2xx&method=get')).toEqual(['GET /api/v4/projects 200', `GET ${P}/issues 200`])
    // A form sends empty fields: they filter nothing.
    expect(await paths('?method=POST&path=&status=&actor=dana')).toEqual([`POST ${P}/issues 201`])
    expect(await paths(`?path=${encodeURIComponent('/api/v4/projects/*/issues/*')}`)).toEqual([
      `GET ${P}/issues/99 404`,
    ])
    expect(await paths('?actor=otto')).toEqual(['GET /api/v4/projects 200'])
    // The form shows the filters in force.
    const res = await page('?method=POST&status=4xx&actor=%22dana%22')
    expect(flat(res)).toContain('<option value="POST" selected> POST </option>')
    expect(flat(res)).toContain('value="4xx"')
    expect(flat(res)).toContain('value="&quot;dana&quot;"')
    expect(flat(res)).toContain('<p>No requests match these filters.</p>')
    // A filter the JSON route refuses (400) is an error on the page, and lists nothing.
    const json = await t.http('GET', '/-/emulator/requests', { token: tokens.root, query: 'status=44' })
    expect([json.status, json.body]).toEqual([400, { error: 'status does not have a valid value' }])
    const bad = await page('?status=44')
    expect(bad.status).toBe(200)
    expect(flat(bad)).toContain(
      '<p class="error" role="alert">The filter is invalid: status does not have a valid value.</p>',
    )
    expect(logRows(bad)).toEqual([])
  })

  it('pages by since_id: "Older requests" and "Newer requests" keep the filters', async () => {
    for (let i = 1; i <= 45; i++) await t.http('GET', `${P}/issues/${100 + i}`, { token: tokens.developer })
    const log = await t.http('GET', '/-/emulator/requests', {
      token: tokens.root,
      query: 'method=GET&status=4xx',
    })
    const ids = (log.body as { id: number }[]).map((e) => e.id)
    expect(ids).toHaveLength(45)
    const latest = await page('?method=GET&status=4xx')
    const shown = (res: Reply) => logRows(res).map((r) => Number(r[0]))
    expect(shown(latest)).toEqual(ids.slice(25).reverse())
    const older = /<a href="([^"]+)" rel="prev">Older requests<\/a>/
      .exec(latest.text)![1]!
      .replace(/&amp;/g, '&')
    expect(older).toBe(`/-/emulator?method=GET&status=4xx&since_id=${ids[4]}#requests`)
    expect(latest.text).not.toContain('Newer requests')
    const second = await page(older.slice('/-/emulator'.length).replace(/#.*/, ''))
    expect(shown(second)).toEqual(ids.slice(5, 25).reverse())
    const oldest = /<a href="([^"]+)" rel="prev">Older requests<\/a>/
      .exec(second.text)![1]!
      .replace(/&amp;/g, '&')
    expect(oldest).toBe(`/-/emulator?method=GET&status=4xx&since_id=0#requests`)
    expect(second.text).toContain(`since_id=${ids[24]}#requests" rel="next">Newer requests</a>`)
    const first = await page(oldest.slice('/-/emulator'.length).replace(/#.*/, ''))
    expect(shown(first)).toEqual(ids.slice(0, 20).reverse())
    expect(first.text).not.toContain('Older requests')
  })

  it('clears the log from its form with the CSRF token; without it, or from another site, refused', async () => {
    await t.http('GET', `${P}/issues`)
    const wrong = await t.http('POST', '/-/emulator/requests/clear', {
      headers: { cookie },
      form: 'authenticity_token=x',
    })
    expect([wrong.status, wrong.body]).toEqual([422, { message: '422 Unprocessable Entity' }])
    const anonymous = await t.http('POST', '/-/emulator/requests/clear', {
      form: `authenticity_token=${encodeURIComponent(csrf)}`,
    })
    expect(anonymous.status).toBe(422)
    const crossSite = await t.http('POST', '/-/emulator/requests/clear', {
      headers: { cookie, origin: 'http://evil.example' },
      form: `authenticity_token=${encodeURIComponent(csrf)}`,
    })
    expect(crossSite.status).toBe(403)
    expect(logRows(await page()).map((r) => r[2])).toContain(`${P}/issues`)

    const cleared = await post('/-/emulator/requests/clear', '')
    expect([cleared.status, cleared.headers.location]).toEqual([303, '/-/emulator?requests=cleared#requests'])
    const after = await page('?requests=cleared')
    expect(flat(after)).toContain('<p role="status">The request log was cleared.</p>')
    expect(logRows(after)).toEqual([])
  })
})

describe('the faults section', () => {
  it('adds a rule from the form, shows its counts, removes it; a bad rule is refused with its error', async () => {
    const added = await post(
      '/-/emulator/faults/add',
      'method=GET&path=%2Fapi%2Fv4%2Fversion&action=status&status=503&retry_after=&ms=&bytes_per_second=&times=2&after=1',
    )
    expect([added.status, added.headers.location]).toEqual([303, '/-/emulator?faults=added#faults'])
    expect(await rules()).toEqual([
      expect.objectContaining({
        method: 'GET',
        path: '/api/v4/version',
        action: 'status',
        status: 503,
        times: 2,
        after: 1,
      }),
    ])
    const version = async () => (await t.http('GET', '/api/v4/version', { token: tokens.developer })).status
    expect([await version(), await version(), await version(), await version()]).toEqual([200, 503, 503, 200])
    const res = await page('?faults=added')
    expect(flat(res)).toContain('<p role="status">The fault rule was added.</p>')
    const id = ((await rules()) as { id: number }[])[0]!.id
    expect(flat(res)).toContain(
      `<td>${id}</td><td>GET</td><td><code>/api/v4/version</code></td><td><span class="muted">any</span></td><td>status 503</td><td>2</td><td>1</td><td>4</td><td>2</td><td>0</td>`,
    )
    // The faulted answers are in the log with their fault.
    expect(
      logRows(res)
        .filter((r) => r[2] === '/api/v4/version')
        .map((r) => [r[3], r[7]]),
    ).toEqual([
      ['200', 'none'],
      ['503', `#${id} status`],
      ['503', `#${id} status`],
      ['200', 'none'],
    ])

    // Bad rules: the JSON route's errors, the page again with 400 and the values posted, nothing added.
    for (const [form, error] of [
      ['action=status&status=', 'status is missing (action status)'],
      ['action=status&status=200', 'status must be a whole number from 400 to 599'],
      ['action=delay&ms=5&status=503', 'status is only for action status'],
      ['action=status&status=503&path=%3Cscript%3E', 'path must be a path starting with /'],
      ['action=explode', 'action must be one of status, delay, reset, slow_body'],
    ]) {
      const bad = await post('/-/emulator/faults/add', form!)
      expect(bad.status).toBe(400)
      expect(bad.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(flat(bad)).toContain(`<p class="error" role="alert">The rule was not added: ${error}.</p>`)
      expect(bad.text).not.toContain('<script')
      expect(await rules()).toHaveLength(1)
    }
    const kept = flat(await post('/-/emulator/faults/add', 'action=status&status=200&path=%2Fapi%3Cb%3E'))
    expect(kept).toContain('id="fault-path" name="path" value="/api&lt;b&gt;"')
    expect(kept).toContain('id="fault-status" name="status" value="200"')

    const removed = await post(`/-/emulator/faults/${id}/remove`, '')
    expect([removed.status, removed.headers.location]).toEqual([303, '/-/emulator?faults=removed#faults'])
    expect(await rules()).toEqual([])
    expect(flat(await page())).toContain('<p>No fault rules: every request is answered as usual.</p>')
  })

  it('clears every rule; refuses forms without the token, from another site or from a non-administrator', async () => {
    await t.http('POST', '/-/emulator/faults', {
      token: tokens.root,
      json: [
        { action: 'delay', ms: 1, path: '/api/v4/nothing' },
        { action: 'reset', path: '/api/v4/nothing' },
      ],
    })
    expect(flat(await page())).toContain('<td>delay 1 ms</td>')
    const dana = /_gitlab_session=[^;]+/.exec(
      (await t.http('POST', '/users/sign_in', { form: `token=${tokens.developer}` })).headers['set-cookie']!,
    )![0]
    const danaCsrf = /name="authenticity_token" value="([^"]+)"/.exec(
      (await t.http('GET', '/acme/widgets', { headers: { cookie: dana } })).text,
    )![1]!
    for (const path of [
      '/-/emulator/faults/add',
      '/-/emulator/faults/clear',
      '/-/emulator/faults/1/remove',
    ]) {
      const form = 'action=reset'
      const noToken = await t.http('POST', path, { headers: { cookie }, form })
      expect([noToken.status, noToken.body]).toEqual([422, { message: '422 Unprocessable Entity' }])
      const crossSite = await t.http('POST', path, {
        headers: { cookie, origin: 'http://evil.example' },
        form: `authenticity_token=${encodeURIComponent(csrf)}&${form}`,
      })
      expect(crossSite.status).toBe(403)
      const developer = await t.http('POST', path, {
        headers: { cookie: dana },
        form: `authenticity_token=${encodeURIComponent(danaCsrf)}&${form}`,
      })
      expect([developer.status, developer.body]).toEqual([403, { message: '403 Forbidden' }])
      expect(await rules()).toHaveLength(2)
    }
    // The page is for administrators only.
    expect((await page('', dana)).status).toBe(404)

    const cleared = await post('/-/emulator/faults/clear', '')
    expect([cleared.status, cleared.headers.location]).toEqual([303, '/-/emulator?faults=cleared#faults'])
    expect(await rules()).toEqual([])
  })

  it('keeps the page itself out of reach of a fault on every path, so the rule can be removed', async () => {
    await t.http('POST', '/-/emulator/faults', {
      token: tokens.root,
      json: { action: 'status', status: 500, path: '/**' },
    })
    expect((await t.http('GET', '/api/v4/version', { token: tokens.root })).status).toBe(500)
    expect((await page()).status).toBe(200)
    expect((await post('/-/emulator/faults/clear', '')).status).toBe(303)
    expect((await t.http('GET', '/api/v4/version', { token: tokens.root })).status).toBe(200)
  })
})
