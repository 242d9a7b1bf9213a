import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { launchChromium } from '../support/browser.js'
import { checkStructure } from '../support/page-structure.js'
import { tokens } from '../support/seeds.js'
import { startServer, type TestServer } from '../support/server.js'
import { repositorySeed } from './repository-seed.js'

/** The repository pages in headless chromium: project → tree → file → commit → parent, by their links. */
jest.setTimeout(90_000)
let t: TestServer
let browser: Browser
let context: BrowserContext
let page: Page
/** What the browser reported as an error: console errors (a CSP refusal among them) and page errors. */
const errors: string[] = []
beforeAll(async () => {
  t = await startServer(repositorySeed)
  browser = await launchChromium()
  context = await browser.newContext({ javaScriptEnabled: false })
  context.setDefaultTimeout(15_000)
  page = await context.newPage()
  page.on('console', (m) => void (m.type() === 'error' && errors.push(`${m.text()} ${m.location().url}`)))
  page.on('pageerror', (e) => void errors.push(e.message))
})
afterAll(async () => {
  await browser?.close()
  await t.close()
})

const h1 = () => page.locator('h1').innerText()
const follow = async (target: Locator) => {
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), target.click()])
  await checkStructure(page)
}

it('walks from the project page through the tree to a file, its commit and the parent commit', async () => {
  const P = '/api/v4/projects/acme%2Fwidgets'
  const seedCommit = ((await t.http('GET', `${P}/repository/commits/main`)).body as { id: string }).id
  const made = await t.http('POST', `${P}/repository/commits`, {
    token: tokens.developer,
    json: {
      branch: 'main',
      commit_message: 'Go deeper',
      actions: [{ action: 'update', file_path: 'src/lib/deep.txt', content: 'one\n<two>\n' }],
    },
  })
  expect(made.status).toBe(201)

  expect((await page.goto(`${t.baseUrl}/acme/widgets`))?.status()).toBe(200)
  await checkStructure(page)
  const readme = page.locator('section[aria-labelledby="readme"]')
  expect(await readme.locator('h3').innerText()).toBe('Widgets <script>alert(1)</script>')
  expect(await readme.locator('li').allInnerTexts()).toEqual(['first item', '[a link](javascript:alert(2))'])
  expect(await readme.locator('a').count()).toBe(0)

  await follow(page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Files' }))
  expect([page.url(), await h1()]).toEqual([`${t.baseUrl}/acme/widgets/-/tree/main`, 'Files'])
  await follow(page.getByRole('link', { name: 'src/' }))
  await follow(page.getByRole('link', { name: 'lib/' }))
  expect(await h1()).toBe('lib')
  await follow(page.getByRole('link', { name: 'deep.txt' }))
  expect([page.url(), await h1()]).toEqual([
    `${t.baseUrl}/acme/widgets/-/blob/main/src/lib/deep.txt`,
    'deep.txt',
  ])
  expect(await page.locator('table.code td.line').allInnerTexts()).toEqual(['one', '<two>'])

  await follow(page.locator('.last-commit').getByRole('link', { name: 'Go deeper' }))
  expect(await h1()).toBe('Go deeper')
  expect(await page.locator('section[aria-labelledby="changes"] tbody tr').allInnerTexts()).toEqual([
    'modified\tsrc/lib/deep.txt',
  ])
  await follow(page.locator('dt:has-text("Parent") + dd').getByRole('link'))
  expect([page.url(), await h1()]).toEqual([
    `${t.baseUrl}/acme/widgets/-/commit/${seedCommit}`,
    'Initial commit',
  ])
  await follow(page.getByRole('link', { name: 'Browse files at this commit' }))
  await follow(page.getByRole('link', { name: 'README.md' }))
  expect(await page.locator('table.code td.line').first().innerText()).toBe(
    '# Widgets <script>alert(1)</script>',
  )

  // The breadcrumbs lead back to the project.
  await follow(page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Widgets' }))
  expect(page.url()).toBe(`${t.baseUrl}/acme/widgets`)
  expect(errors).toEqual([])
})
