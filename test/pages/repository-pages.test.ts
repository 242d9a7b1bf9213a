import { request } from 'undici'
import { tokens } from '../support/seeds.js'
import { startServer, type Reply, type TestServer } from '../support/server.js'
import { repositorySeed } from './repository-seed.js'

/** The repository's pages over plain HTTP: the API's web_urls answered, text escaped, raw headers, 404s. */
let t: TestServer
/** The seed's commit (main and v1.0), and the commit on top of it made through the API. */
let first: string
let second: string
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
const BIN = Buffer.from([0, 1, 2, 3, 0xff, 0xfe, 0, 10])
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(6)</script></svg>'

const P = '/api/v4/projects/acme%2Fwidgets'
const cookieOf = (res: Reply) => /_gitlab_session=[^;]+/.exec(res.headers['set-cookie'] ?? '')?.[0]
const signIn = async (token: string) => {
  const res = await t.http('POST', '/users/sign_in', { form: `token=${encodeURIComponent(token)}` })
  expect(res.status).toBe(303)
  return cookieOf(res)!
}
const get = (path: string, cookie?: string) => t.http('GET', path, cookie ? { headers: { cookie } } : {})
/** A page's markup with its white space runs made one space, and none between tags. */
const flat = (res: Reply) => res.text.replace(/\s+/g, ' ').replace(/ >/g, '>').replace(/> </g, '><')
const h1 = (res: Reply) => [...res.text.matchAll(/<h1>\s*([\s\S]*?)\s*<\/h1>/g)].map((m) => m[1])

beforeAll(async () => {
  t = await startServer(repositorySeed)
  first = ((await t.http('GET', `${P}/repository/commits/main`)).body as { id: string }).id
  const made = await t.http('POST', `${P}/repository/commits`, {
    token: tokens.developer,
    json: {
      branch: 'main',
      commit_message: 'Add assets <em>now</em>\n\nThe body <b>explains</b>.',
      actions: [
        { action: 'create', file_path: 'bin/data.bin', content: BIN.toString('base64'), encoding: 'base64' },
        { action: 'create', file_path: 'img/logo.png', content: PNG.toString('base64'), encoding: 'base64' },
        { action: 'create', file_path: 'img/logo.svg', content: SVG },
        { action: 'update', file_path: 'src/lib/deep.txt', content: 'deeper\n' },
        { action: 'move', previous_path: 'site/index.html', file_path: 'site/page.html' },
      ],
    },
  })
  expect(made.status).toBe(201)
  second = (made.body as { id: string }).id
  const branch = await t.http('POST', `${P}/repository/branches`, {
    token: tokens.developer,
    form: 'branch=feature%2Fx&ref=main',
  })
  expect(branch.status).toBe(201)
})
afterAll(() => t.close())

describe('repository pages', () => {
  it("serve a commit's web_url: title, message, author, parent linked, the files it changed", async () => {
    const api = (await t.http('GET', `${P}/repository/commits/${second}`)).body as { web_url: string }
    const path = new URL(api.web_url).pathname
    expect(path).toBe(`/acme/widgets/-/commit/${second}`)
    const res = await get(path)
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.headers['content-security-policy']).toContain("default-src 'none'")
    expect(h1(res)).toEqual(['Add assets &lt;em&gt;now&lt;/em&gt;'])
    expect(res.text).toContain('The body &lt;b&gt;explains&lt;/b&gt;.')
    expect(res.text).not.toContain('<b>')
    const page = flat(res)
    expect(page).toContain('<dt>Author</dt><dd>Dana Developer,')
    expect(page).toContain(
      `<dt>Parent</dt><dd><a href="/acme/widgets/-/commit/${first}"><code>${first.slice(0, 8)}</code></a>`,
    )
    expect(page).toContain('5 files changed with 2 additions and 1 deletion </p>')
    const rows = [
      ...page.matchAll(/<tr><td>(\w+)<\/td><td><a href="([^"]+)"><code>([^<]+)<\/code><\/a>/g),
    ].map((m) => [m[1], m[2], m[3]])
    expect(rows).toEqual([
      ['added', `/acme/widgets/-/blob/${second}/bin/data.bin`, 'bin/data.bin'],
      ['added', `/acme/widgets/-/blob/${second}/img/logo.png`, 'img/logo.png'],
      ['added', `/acme/widgets/-/blob/${second}/img/logo.svg`, 'img/logo.svg'],
      ['renamed', `/acme/widgets/-/blob/${second}/site/page.html`, 'site/page.html'],
      ['modified', `/acme/widgets/-/blob/${second}/src/lib/deep.txt`, 'src/lib/deep.txt'],
    ])
    expect(page).toContain('from <code>site/index.html</code>')
    // The root commit: no parent, every file added, reached by a short SHA too.
    const root = flat(await get(`/acme/widgets/-/commit/${first.slice(0, 10).toUpperCase()}`))
    expect(root).toContain('none (a root commit)')
    expect(root).toContain('4 files changed')
  })

  it('shows the newest pipeline of a commit with its status', async () => {
    const made = await t.http('POST', `${P}/pipeline`, { token: tokens.developer, form: 'ref=feature%2Fx' })
    expect(made.status).toBe(201)
    const pipeline = made.body as { id: number; status: string; sha: string }
    expect(pipeline.sha).toBe(second)
    const page = flat(await get(`/acme/widgets/-/commit/${second}`))
    expect(page).toContain(
      `<dt>Pipeline</dt><dd><a href="/acme/widgets/-/pipelines/${pipeline.id}">#${pipeline.id}</a>`,
    )
    expect(page).toMatch(/<span class="status status-\w+">\w+<\/span>/)
    // The pipeline's and its job's pages link the commit.
    const commitLink = `<a href="/acme/widgets/-/commit/${second}"><code>${second.slice(0, 8)}</code></a>`
    expect(flat(await get(`/acme/widgets/-/pipelines/${pipeline.id}`))).toContain(
      `<dt>Commit</dt><dd>${commitLink}</dd>`,
    )
    const jobs = await t.http('GET', `${P}/pipelines/${pipeline.id}/jobs`, { token: tokens.developer })
    const [job] = jobs.body as { id: number }[]
    expect(job).toBeDefined()
    expect(flat(await get(`/acme/widgets/-/jobs/${job!.id}`))).toContain(
      `<dt>Commit</dt><dd>${commitLink}</dd>`,
    )
  })

  it('list a folder: folders first, entries linked, breadcrumbs, the last commit', async () => {
    const res = await get('/acme/widgets/-/tree/main')
    expect(res.status).toBe(200)
    expect(h1(res)).toEqual(['Files'])
    const page = flat(res)
    const names = [
      ...page.matchAll(/<td><a href="(\/acme\/widgets\/-\/(?:tree|blob)\/main\/[^"]+)">([^<]+)<\/a><\/td>/g),
    ].map((m) => [m[1], m[2]])
    expect(names).toEqual([
      ['/acme/widgets/-/tree/main/bin', 'bin/'],
      ['/acme/widgets/-/tree/main/docs', 'docs/'],
      ['/acme/widgets/-/tree/main/img', 'img/'],
      ['/acme/widgets/-/tree/main/site', 'site/'],
      ['/acme/widgets/-/tree/main/src', 'src/'],
      ['/acme/widgets/-/blob/main/README.md', 'README.md'],
    ])
    expect(page).toContain(
      `Last commit: <a href="/acme/widgets/-/commit/${second}">Add assets &lt;em&gt;now&lt;/em&gt;</a>`,
    )
    // A nested folder: the trail links each level, `..` goes up, the last commit is the folder's.
    const deep = flat(await get('/acme/widgets/-/tree/main/src/lib'))
    expect(deep).toContain('<a href="/acme/widgets/-/tree/main">main</a>')
    expect(deep).toContain('<a href="/acme/widgets/-/tree/main/src">src</a>')
    expect(deep).toContain('<td><a href="/acme/widgets/-/tree/main/src">..</a></td>')
    expect(deep).toContain('<a href="/acme/widgets/-/blob/main/src/lib/deep.txt">deep.txt</a>')
    // The tag still has the seed's files, the old commit its last.
    const tag = flat(await get('/acme/widgets/-/tree/v1.0/site'))
    expect(tag).toContain('<a href="/acme/widgets/-/blob/v1.0/site/index.html">index.html</a>')
    expect(tag).toContain(`Last commit: <a href="/acme/widgets/-/commit/${first}">`)
  })

  it("serve a branch's web_url when its name has a slash, and the branches and tags lists", async () => {
    const api = (await t.http('GET', `${P}/repository/branches/feature%2Fx`)).body as { web_url: string }
    const path = new URL(api.web_url).pathname
    expect(path).toBe('/acme/widgets/-/tree/feature/x')
    const res = await get(path)
    expect(res.status).toBe(200)
    expect(flat(res)).toContain('Ref <code>feature/x</code>')
    expect(flat(res)).toContain('<a href="/acme/widgets/-/tree/feature/x/src">src/</a>')
    expect((await get('/acme/widgets/-/blob/feature/x/src/lib/deep.txt')).status).toBe(200)
    const branches = flat(await get('/acme/widgets/-/branches'))
    expect(branches).toContain('<a href="/acme/widgets/-/tree/feature/x">feature/x</a>')
    expect(branches).toMatch(
      /<a href="\/acme\/widgets\/-\/tree\/main">main<\/a><span class="badge">default<\/span><span class="badge">protected<\/span>/,
    )
    const tags = flat(await get('/acme/widgets/-/tags'))
    expect(tags).toContain(
      `<a href="/acme/widgets/-/tree/v1.0">v1.0</a></td><td><a href="/acme/widgets/-/commit/${first}">`,
    )
  })

  it('show a file escaped, line by line, its hostile name as text', async () => {
    const tree = await get('/acme/widgets/-/tree/main/docs')
    const href = '/acme/widgets/-/blob/main/docs/%3Cimg%20src%3Dx%20onerror%3Dalert(3)%3E.txt'
    expect(flat(tree)).toContain(`<a href="${href}">&lt;img src=x onerror=alert(3)&gt;.txt</a>`)
    expect(tree.text).not.toContain('<img')
    const res = await get(href)
    expect(res.status).toBe(200)
    expect(h1(res)).toEqual(['&lt;img src=x onerror=alert(3)&gt;.txt'])
    const page = flat(res)
    expect(page).toContain(
      '<tr id="L1"><td class="ln"><a href="#L1">1</a></td><td class="line">&lt;script&gt;alert(4)&lt;/script&gt;</td></tr>',
    )
    expect(page).toContain(
      '<tr id="L2"><td class="ln"><a href="#L2">2</a></td><td class="line">second &amp; &quot;line&quot;</td></tr>',
    )
    expect(page).not.toContain('id="L3"')
    expect(res.text).not.toMatch(/<script|<img/)
    expect(page).toContain(
      `<a href="/acme/widgets/-/raw/main/docs/%3Cimg%20src%3Dx%20onerror%3Dalert(3)%3E.txt">Open raw</a> ·`,
    )
    expect(res.text).not.toContain('&middot;')
    // A binary file is not shown.
    const bin = flat(await get('/acme/widgets/-/blob/main/bin/data.bin'))
    expect(bin).toContain('This is a binary file of 8 bytes: it is not shown.')
    expect(bin).not.toContain('class="code"')
  })

  it('answer raw bytes with a safe content type, the disposition and nosniff', async () => {
    const raw = async (path: string) => {
      const res = await request(`${t.baseUrl}${path}`)
      return {
        status: res.statusCode,
        headers: res.headers,
        bytes: Buffer.from(await res.body.arrayBuffer()),
      }
    }
    const text = await raw('/acme/widgets/-/raw/main/docs/%3Cimg%20src%3Dx%20onerror%3Dalert(3)%3E.txt')
    expect(text.status).toBe(200)
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(text.headers['content-disposition']).toBe(
      `inline; filename="%3Cimg src%3Dx onerror%3Dalert%283%29%3E.txt"; filename*=UTF-8''%3Cimg%20src%3Dx%20onerror%3Dalert%283%29%3E.txt`,
    )
    expect(text.headers['x-content-type-options']).toBe('nosniff')
    expect(text.bytes.toString()).toBe('<script>alert(4)</script>\nsecond & "line"\n')
    expect(text.headers['cache-control']).toBe(
      'max-age=60, public, must-revalidate, stale-while-revalidate=60, stale-if-error=300, s-maxage=60',
    )
    const etag = text.headers.etag as string
    const cached = await request(
      `${t.baseUrl}/acme/widgets/-/raw/main/docs/%3Cimg%20src%3Dx%20onerror%3Dalert(3)%3E.txt`,
      { headers: { 'if-none-match': etag } },
    )
    expect([cached.statusCode, await cached.body.text()]).toEqual([304, ''])
    // HTML is served as text, from the tag that still has it.
    const html = await raw('/acme/widgets/-/raw/v1.0/site/index.html')
    expect([html.status, html.headers['content-type']]).toEqual([200, 'text/plain; charset=utf-8'])
    expect(html.headers['content-security-policy']).toContain('sandbox')
    const png = await raw('/acme/widgets/-/raw/main/img/logo.png')
    expect([png.headers['content-type'], png.headers['content-disposition']]).toEqual([
      'image/png',
      `inline; filename="logo.png"; filename*=UTF-8''logo.png`,
    ])
    expect(png.bytes.equals(PNG)).toBe(true)
    const head = await request(`${t.baseUrl}/acme/widgets/-/raw/main/img/logo.png`, { method: 'HEAD' })
    expect([head.statusCode, head.headers['content-type'], await head.body.text()]).toEqual([
      200,
      'image/png',
      '',
    ])
    expect(
      (await raw('/acme/widgets/-/raw/main/img/logo.png?inline=false')).headers['content-disposition'],
    ).toBe(`attachment; filename="logo.png"; filename*=UTF-8''logo.png`)
    const svg = await raw('/acme/widgets/-/raw/main/img/logo.svg')
    expect([svg.headers['content-type'], svg.headers['content-disposition']]).toEqual([
      'image/svg+xml',
      `attachment; filename="logo.svg"; filename*=UTF-8''logo.svg`,
    ])
    const bin = await raw(`/acme/widgets/-/raw/${second}/bin/data.bin`)
    expect([bin.headers['content-type'], bin.headers['content-disposition']]).toEqual([
      'application/octet-stream',
      `attachment; filename="data.bin"; filename*=UTF-8''data.bin`,
    ])
    expect(bin.bytes.equals(BIN)).toBe(true)
    expect(bin.headers['cache-control']).toMatch(/^max-age=3600, public,/)
  })

  it("show the README on the project page as safe Markdown, and link the repository's pages", async () => {
    const res = await get('/acme/widgets')
    expect(res.status).toBe(200)
    const page = flat(res)
    expect(page).toContain(
      '<h2 id="readme">README.md</h2><h3>Widgets &lt;script&gt;alert(1)&lt;/script&gt;</h3>',
    )
    expect(page).toContain('<p>Build with <code>make all</code> and &lt;b&gt;enjoy&lt;/b&gt;.</p>')
    expect(page).toContain('<ul><li>first item</li><li>[a link](javascript:alert(2))</li></ul>')
    expect(res.text).toContain('<pre><code>make &lt;all&gt;\n  indented</code></pre>')
    expect(res.text).not.toMatch(/<script|<b>|href="javascript/)
    for (const href of ['/acme/widgets/-/tree/main', '/acme/widgets/-/branches', '/acme/widgets/-/tags'])
      expect(page).toContain(`href="${href}"`)
  })

  it('404 what does not exist and what the visitor may not read, and refuse path traversal', async () => {
    const missing = [
      '/acme/widgets/-/tree/nope',
      '/acme/widgets/-/blob/main/nope.txt',
      '/acme/widgets/-/raw/main/nope.txt',
      '/acme/widgets/-/raw/nope/README.md',
      `/acme/widgets/-/commit/${'0'.repeat(40)}`,
      '/acme/widgets/-/commit/nope',
      '/acme/widgets/-/commit/main',
      `/acme/widgets/-/commit/${first.slice(0, 6)}`,
      // A client's URL parser drops `..` and `%2e%2e` segments: an encoded slash keeps one.
      '/acme/widgets/-/blob/main/src%2f..%2fREADME.md',
      '/acme/widgets/-/raw/main/src%2F..%2FREADME.md',
      '/acme/widgets/-/tree/main/src%2f..',
      '/acme/widgets/-/tree/nope/src',
      '/acme/widgets/-/raw/main/..%2f..%2fetc%2fpasswd',
      '/nope/nope/-/tree/main',
    ]
    for (const path of missing) {
      const res = await get(path)
      expect([path, res.status, res.headers['content-type']]).toEqual([path, 404, 'text/html; charset=utf-8'])
      expect(h1(res)).toEqual(['Page not found'])
    }
    // As GitLab: a file's tree goes to its blob, a folder's blob to its tree, a missing folder to the root.
    for (const [from, to] of [
      ['/acme/widgets/-/tree/main/src/lib/deep.txt', '/acme/widgets/-/blob/main/src/lib/deep.txt'],
      ['/acme/widgets/-/blob/feature/x/src/lib', '/acme/widgets/-/tree/feature/x/src/lib'],
      ['/acme/widgets/-/tree/v1.0/nope/deeper', '/acme/widgets/-/tree/v1.0'],
    ]) {
      const res = await get(from!)
      expect([from, res.status, res.headers.location]).toEqual([from, 302, to])
    }
    const secretCommit = await t.http('GET', '/api/v4/projects/acme%2Fsecret/repository/commits/main', {
      token: tokens.root,
    })
    const sha = (secretCommit.body as { id: string }).id
    const secret = [
      '/acme/secret',
      '/acme/secret/-/tree/main',
      '/acme/secret/-/blob/main/README.md',
      '/acme/secret/-/raw/main/README.md',
      `/acme/secret/-/commit/${sha}`,
      '/acme/secret/-/branches',
      '/acme/secret/-/tags',
    ]
    const outsider = await signIn(tokens.outsider)
    const guest = await signIn(tokens.guest)
    const admin = await signIn(tokens.root)
    for (const path of secret) {
      // A Guest sees the project (its page, without the README) but not its code (`download_code`).
      for (const cookie of path === '/acme/secret' ? [undefined, outsider] : [undefined, outsider, guest]) {
        const res = await get(path, cookie)
        expect([path, res.status]).toEqual([path, 404])
        expect(res.text).not.toContain('Top secret')
      }
      expect([path, (await get(path, admin)).status]).toEqual([path, 200])
    }
    const overview = await get('/acme/secret', guest)
    expect(overview.status).toBe(200)
    expect(overview.text).not.toContain('Top secret')
    const secretRaw = await get('/acme/secret/-/raw/main/README.md', admin)
    expect([secretRaw.text, secretRaw.headers['cache-control']]).toEqual([
      'Top secret',
      'max-age=60, private, must-revalidate, stale-while-revalidate=60, stale-if-error=300, s-maxage=60',
    ])
    // The private project's commit is not reachable through the public one.
    for (const path of [
      `/acme/widgets/-/commit/${sha}`,
      `/acme/widgets/-/tree/${sha}`,
      `/acme/widgets/-/raw/${sha}/README.md`,
      `/acme/widgets/-/blob/${sha.slice(0, 12)}/README.md`,
    ])
      expect([path, (await get(path, admin)).status]).toEqual([path, 404])
  })
})
