import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { launchChromium } from '../support/browser.js'
import { checkStructure as pageStructure } from '../support/page-structure.js'
import { tokens } from '../support/seeds.js'
import { startServer, type TestServer } from '../support/server.js'
import { PAGES_TRIGGER, pagesSeed } from './seed.js'

/** The pages in a real browser (headless chromium): links followed, forms posted, no JavaScript needed. */
// A browser on a busy machine: each step may take seconds, a test with a dozen of them a minute.
jest.setTimeout(90_000)
let t: TestServer
let browser: Browser
let context: BrowserContext
let page: Page
beforeAll(async () => {
  t = await startServer(pagesSeed)
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
  await t.close()
})
beforeEach(async () => {
  // Pages must work with JavaScript off; each test starts signed out.
  context = await browser.newContext({ javaScriptEnabled: false })
  context.setDefaultTimeout(15_000)
  page = await context.newPage()
})
afterEach(() => context.close())

const P = '/api/v4/projects/acme%2Fwidgets'
const h1 = () => page.locator('h1').innerText()
/** Clicks what leads to another page, and waits until that page has loaded (no script: each click loads one). */
const follow = async (target: Locator) => {
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), target.click()])
}
const signIn = async (token: string) => {
  await page.goto(`${t.baseUrl}/users/sign_in`)
  await page.getByLabel('Personal access token').fill(token)
  await follow(page.getByRole('button', { name: 'Sign in' }))
  expect([page.url(), await h1()]).toEqual([`${t.baseUrl}/explore/projects`, 'Explore projects'])
  expect(await context.cookies()).toHaveLength(1)
}
const checkStructure = () => pageStructure(page)
const count = (name: string) => page.locator(`[data-count="${name}"] strong`).innerText()

it("opens an issue's web_url from the API and follows links to the project, its issues, a pipeline and a job", async () => {
  const made = await t.http('POST', `${P}/trigger/pipeline`, { form: `ref=main&token=${PAGES_TRIGGER}` })
  const pipelineId = (made.body as { id: number }).id
  const issue = (await t.http('GET', `${P}/issues/1`)).body as { web_url: string; title: string }
  const res = await page.goto(issue.web_url)
  expect(res?.status()).toBe(200)
  expect(await h1()).toBe(issue.title)
  await checkStructure()
  expect(await page.locator('.label', { hasText: 'bug' }).getAttribute('style')).toContain('#d9534f')

  await follow(page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Widgets' }))
  expect(page.url()).toBe(`${t.baseUrl}/acme/widgets`)
  expect(await h1()).toBe('Widgets')
  await checkStructure()

  await follow(page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Issues' }))
  expect(await h1()).toBe('Issues')
  await checkStructure()
  await follow(page.getByRole('link', { name: 'Closed', exact: true }))
  expect(page.url()).toBe(`${t.baseUrl}/acme/widgets/-/issues?state=closed`)
  await follow(page.getByRole('link', { name: 'Closed one' }))
  expect(await h1()).toBe('Closed one')

  await follow(page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Pipelines' }))
  await follow(page.getByRole('link', { name: `#${pipelineId}` }))
  expect(await h1()).toBe(`Pipeline #${pipelineId}`)
  await checkStructure()
  await follow(page.getByRole('link', { name: 'build' }))
  expect(await h1()).toBe('Job build')
  await checkStructure()
  expect(await page.locator('dt:has-text("Status") + dd').innerText()).toMatch(
    /^(created|pending|running|success)$/,
  )
})

it('shows a private project after signing in, and 404 to a signed-out visitor', async () => {
  const hidden = await page.goto(`${t.baseUrl}/acme/platform/secret`)
  expect(hidden?.status()).toBe(404)
  expect(await h1()).toBe('Page not found')
  await checkStructure()
  await follow(page.getByRole('main').getByRole('link', { name: 'sign in' }))
  await checkStructure()
  await page.getByLabel('Personal access token').fill('glpat-wrong')
  await follow(page.getByRole('button', { name: 'Sign in' }))
  expect(await page.getByRole('alert').innerText()).toContain('Invalid')
  await page.getByLabel('Personal access token').fill(tokens.developer)
  await follow(page.getByRole('button', { name: 'Sign in' }))
  expect(page.url()).toBe(`${t.baseUrl}/acme/platform/secret`)
  expect(await h1()).toBe('Secret')
  await checkStructure()
  const [cookie] = await context.cookies()
  expect(cookie).toMatchObject({ name: '_gitlab_session', httpOnly: true, sameSite: 'Strict' })

  await follow(page.getByRole('button', { name: 'Sign out' }))
  expect((await page.goto(`${t.baseUrl}/acme/platform/secret`))?.status()).toBe(404)
})

it("resets from the emulator page's button: the counts return to the seed's", async () => {
  await signIn(tokens.root)
  await t.http('POST', `${P}/issues`, { token: tokens.root, json: { title: 'Made by the API' } })
  await page.goto(`${t.baseUrl}/-/emulator`)
  expect(await h1()).toBe('Emulator')
  await checkStructure()
  const issues = Number(await count('issues'))
  expect(await page.locator('h2').allInnerTexts()).toEqual([
    'What the instance holds',
    'Request log',
    'Faults',
    'Webhooks and deliveries',
    'Instance',
    'Reset',
  ])
  await follow(page.getByRole('button', { name: 'Reset to the seed' }))
  expect(page.url()).toBe(`${t.baseUrl}/-/emulator?reset=done`)
  expect(await page.getByRole('status').innerText()).toContain('reset')
  expect(Number(await count('issues'))).toBe(issues - 1)
  expect(await count('issues')).toBe('3')
})

it('refuses a cross-site form post to the reset, even one carrying the session and its token', async () => {
  await signIn(tokens.root)
  await page.goto(`${t.baseUrl}/-/emulator`)
  const csrf = await page.locator('input[name="authenticity_token"]').first().inputValue()
  await t.http('POST', `${P}/issues`, { token: tokens.root, json: { title: 'Must survive' } })
  const before = (await t.http('GET', `${P}/issues`, { token: tokens.root, query: 'state=all' })).headers[
    'x-total'
  ]

  // Another site (localhost against 127.0.0.1, another port) serves a form aimed at the reset.
  const evil: Server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html')
    res.end(`<!DOCTYPE html><html lang="en"><title>win</title><form method="post" action="${t.baseUrl}/-/emulator/reset">
<input type="hidden" name="authenticity_token" value="${csrf}"><button type="submit">Claim prize</button></form></html>`)
  })
  await new Promise<void>((done) => evil.listen(0, '127.0.0.1', done))
  try {
    await page.goto(`http://localhost:${(evil.address() as AddressInfo).port}/`)
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url() === `${t.baseUrl}/-/emulator/reset`),
      page.getByRole('button', { name: 'Claim prize' }).click(),
    ])
    expect(answer.status()).toBe(403)
    expect(await answer.text()).toContain('CSRF protection')
  } finally {
    await new Promise((done) => evil.close(done))
  }
  const after = (await t.http('GET', `${P}/issues`, { token: tokens.root, query: 'state=all' })).headers[
    'x-total'
  ]
  expect(after).toBe(before)
  const issues = (await t.http('GET', `${P}/issues`, { token: tokens.root, query: 'search=survive' })).body
  expect(issues).toHaveLength(1)
})

/** The emulator page's section of that id. */
const section = (id: string) => page.locator(`section#${id}`)
/** The request log table's rows on the page, newest first: [method, path, status, fault]. */
const logRows = async () =>
  Promise.all(
    (await section('requests').locator('tbody tr').all()).map(async (tr) => {
      const cells = await tr.locator('td').allInnerTexts()
      return [cells[1], cells[2], cells[3], cells[7]]
    }),
  )

it("filters the emulator page's request log by status with its form", async () => {
  await signIn(tokens.root)
  await t.http('DELETE', '/-/emulator/requests', { token: tokens.root })
  await t.http('GET', `${P}/issues`, { token: tokens.developer })
  await t.http('GET', `${P}/issues/404`, { token: tokens.developer })
  await t.http('GET', '/api/v4/projects/acme%2Fnothing', { token: tokens.developer })
  await page.goto(`${t.baseUrl}/-/emulator`)
  await checkStructure()
  expect((await logRows()).map((r) => r[2])).toEqual(['404', '404', '200'])
  await section('requests').getByLabel('Status').fill('404')
  await follow(section('requests').getByRole('button', { name: 'Filter' }))
  expect(page.url()).toBe(`${t.baseUrl}/-/emulator?method=&path=&status=404&actor=#requests`)
  expect(await logRows()).toEqual([
    ['GET', '/api/v4/projects/acme%2Fnothing', '404', 'none'],
    ['GET', `${P}/issues/404`, '404', 'none'],
  ])
  expect(await section('requests').getByLabel('Status').inputValue()).toBe('404')
  await checkStructure()
  await follow(section('requests').getByRole('link', { name: 'All requests' }))
  expect(await logRows()).toHaveLength(3)
})

it("adds a 503 fault from the emulator page's form, sees an API call fail and logged with it, removes it", async () => {
  await t.http('DELETE', '/-/emulator/requests', { token: tokens.root })
  await signIn(tokens.root)
  await page.goto(`${t.baseUrl}/-/emulator`)
  const faults = section('faults')
  expect(await faults.getByText('No fault rules').count()).toBe(1)
  await faults.getByLabel('Method').selectOption('GET')
  await faults.getByLabel('Path pattern').fill('/api/v4/version')
  await faults.getByLabel('Action').selectOption('status')
  await faults.getByLabel('Status code').fill('503')
  await faults.getByLabel('Times').fill('1')
  await follow(faults.getByRole('button', { name: 'Add the rule' }))
  expect(page.url()).toBe(`${t.baseUrl}/-/emulator?faults=added#faults`)
  expect(await page.getByRole('status').innerText()).toBe('The fault rule was added.')
  const [rule] = (await t.http('GET', '/-/emulator/faults', { token: tokens.root })).body as { id: number }[]

  const failed = await t.http('GET', '/api/v4/version', { token: tokens.developer })
  expect(failed.status).toBe(503)
  expect((await t.http('GET', '/api/v4/version', { token: tokens.developer })).status).toBe(200)
  await page.reload()
  await checkStructure()
  expect((await logRows()).slice(0, 2)).toEqual([
    ['GET', '/api/v4/version', '200', 'none'],
    ['GET', '/api/v4/version', '503', `#${rule!.id} status`],
  ])
  const cells = await faults.locator('tbody tr').first().locator('td').allInnerTexts()
  expect(cells.slice(0, 10)).toEqual([
    String(rule!.id),
    'GET',
    '/api/v4/version',
    'any',
    'status 503',
    '1',
    '0',
    '2',
    '1',
    '0',
  ])
  if (process.env.UPDATE_SCREENSHOT) {
    await page.setViewportSize({ width: 1100, height: 760 })
    await page.screenshot({ path: 'docs/emulator-page.png', fullPage: true })
  }

  // A bad rule: the page again with the error, the values kept, nothing added.
  await faults.getByLabel('Action').selectOption('delay')
  await faults.getByLabel('Path pattern').fill('no-slash')
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.url() === `${t.baseUrl}/-/emulator/faults/add`),
    faults.getByRole('button', { name: 'Add the rule' }).click(),
  ])
  expect(answer.status()).toBe(400)
  await page.waitForLoadState('load')
  expect(await page.getByRole('alert').innerText()).toBe(
    'The rule was not added: path must be a path starting with /.',
  )
  expect(await faults.getByLabel('Path pattern').inputValue()).toBe('no-slash')
  await checkStructure()
  expect((await t.http('GET', '/-/emulator/faults', { token: tokens.root })).body).toHaveLength(1)

  await follow(faults.getByRole('button', { name: `Remove rule ${rule!.id}` }))
  expect(await page.getByRole('status').innerText()).toBe('The fault rule was removed.')
  expect(await faults.getByText('No fault rules').count()).toBe(1)
  expect((await t.http('GET', '/api/v4/version', { token: tokens.developer })).status).toBe(200)
})

it("refuses a cross-site post to the emulator page's fault and log forms", async () => {
  await t.http('DELETE', '/-/emulator/faults', { token: tokens.root })
  await signIn(tokens.root)
  await page.goto(`${t.baseUrl}/-/emulator`)
  const csrf = await page.locator('input[name="authenticity_token"]').first().inputValue()
  await t.http('POST', '/-/emulator/faults', {
    token: tokens.root,
    json: { action: 'reset', path: '/api/v4/x' },
  })
  await t.http('GET', `${P}/issues`)
  const forms = [
    ['/-/emulator/faults/add', '<input name="action" value="status"><input name="status" value="500">'],
    ['/-/emulator/faults/clear', ''],
    ['/-/emulator/requests/clear', ''],
  ]
  const evil: Server = createServer((req, res) => {
    const [action, fields] = forms[Number(req.url!.slice(1))] ?? forms[0]!
    res.setHeader('content-type', 'text/html')
    res.end(`<!DOCTYPE html><html lang="en"><title>win</title><form method="post" action="${t.baseUrl}${action}">
<input type="hidden" name="authenticity_token" value="${csrf}">${fields}<button type="submit">Claim prize</button></form></html>`)
  })
  await new Promise<void>((done) => evil.listen(0, '127.0.0.1', done))
  try {
    for (const [n, [action]] of forms.entries()) {
      await page.goto(`http://localhost:${(evil.address() as AddressInfo).port}/${n}`)
      const [answer] = await Promise.all([
        page.waitForResponse((r) => r.url() === `${t.baseUrl}${action}`),
        page.getByRole('button', { name: 'Claim prize' }).click(),
      ])
      expect(answer.status()).toBe(403)
      expect(await answer.text()).toContain('CSRF protection')
    }
  } finally {
    await new Promise((done) => evil.close(done))
  }
  const rules = (await t.http('GET', '/-/emulator/faults', { token: tokens.root })).body as {
    action: string
  }[]
  expect(rules.map((r) => r.action)).toEqual(['reset'])
  const log = (
    await t.http('GET', '/-/emulator/requests', {
      token: tokens.root,
      query: `path=${encodeURIComponent(`${P}/issues`)}`,
    })
  ).body
  expect((log as unknown[]).length).toBeGreaterThan(0)
  await t.http('DELETE', '/-/emulator/faults', { token: tokens.root })
})
