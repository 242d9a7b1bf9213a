import { eventually, hookReceiver } from '../support/hook-receiver.js'
import { pipelineSeed } from '../support/pipeline-seed.js'
import { startServer, type Reply, type TestServer } from '../support/server.js'

/** The emulator page's webhooks section: the hooks with their state and the newest deliveries, escaped. */
let t: TestServer
let receiver: Awaited<ReturnType<typeof hookReceiver>>
beforeEach(async () => {
  t = await startServer(pipelineSeed, { allowLocalRequests: true })
  receiver = await hookReceiver(500)
})
afterEach(async () => {
  await t.close()
  await receiver.close()
})

const P = '/api/v4/projects/acme%2Fapp'
const cookieOf = (res: Reply) => /_gitlab_session=[^;]+/.exec(res.headers['set-cookie'] ?? '')?.[0]
const page = async (token: string) => {
  const signIn = await t.http('POST', '/users/sign_in', {
    form: `token=${token}&redirect_to=%2F-%2Femulator`,
  })
  return t.http('GET', '/-/emulator', { headers: { cookie: cookieOf(signIn)! } })
}
const flat = (res: Reply) => res.text.replace(/\s+/g, ' ').replace(/ >/g, '>').replace(/> </g, '><')

it('lists the hooks and their deliveries to administrators', async () => {
  const empty = flat(await page('glpat-root-token'))
  expect(empty).toContain('<h2 id="hooks-title">Webhooks and deliveries</h2>')
  expect(empty).toContain('<p>No hooks.</p>')
  expect(empty).toContain('<p>No deliveries.</p>')
  const url = `${receiver.url}?a=<b>`
  const hook = await t.http('POST', `${P}/hooks`, {
    token: 'glpat-mark-token',
    json: { url, issues_events: true },
  })
  expect(hook.status).toBe(201)
  await t.http('POST', `${P}/issues`, { token: 'glpat-mark-token', json: { title: 'Seen' } })
  await eventually(
    () => page('glpat-root-token').then(flat),
    (text) => text.includes('data-delivery='),
  )
  const text = flat(await page('glpat-root-token'))
  expect(text).toContain(`acme/app: <code>${receiver.url}?a=&lt;b&gt;</code> (executable, 1 recent failures)`)
  expect(text).toMatch(/hook #\d+ issue_hooks: <strong>500<\/strong> in \d+\.\d{3} s/)
  // Not for anyone else: the page is administrators' only.
  expect((await page('glpat-mark-token')).status).toBe(404)
})
