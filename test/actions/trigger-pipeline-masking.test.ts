/*
 * trigger-pipeline's bundle against the real server with a job that echoes the pipeline variables
 * it was given and fails: the values GitLab could mask (8 characters or more, no whitespace) are
 * registered with the runner before anything is logged and are `***` in the log tail, in the log
 * and the job summary; shorter or spaced values are left alone; `mask-variables: false` turns it off.
 */
import type { ChildProcess } from 'node:child_process'
import { runBundle, whileRunning } from '../support/action-run.js'
import { commitFiles } from '../support/ci-files.js'
import { manualClock } from '../support/pipeline-seed.js'
import { startServer, type TestServer } from '../support/server.js'

const TRIGGER = `glptt-${'e7'.repeat(20)}`
const MARK = 'glpat-mark-token-0123456789'
/** A deploy key's shape: GitLab could mask it (no whitespace, 8 characters or more). */
const KEY = 'c2VjcmV0LWRlcGxveS1rZXk+/=@:.~-'
const seed = `
users:
  - { username: root, admin: true, token: glpat-root-token }
  - { username: mark, token: ${MARK} }
groups:
  - { path: acme, visibility: private, members: { mark: maintainer } }
projects:
  - { path: acme/app, triggers: [ { description: d, owner: mark, token: ${TRIGGER} } ] }
`
const CI = {
  '.gitlab-ci.yml': `
deploy:
  script:
    - echo "key=$DEPLOY_KEY env=$DEPLOY_ENV note=$NOTE"
    - exit 1
`,
}

let t: TestServer
let clock: ReturnType<typeof manualClock>
beforeEach(async () => {
  clock = manualClock()
  t = await startServer(seed, { clock })
  await commitFiles(t, 'acme/app', 'main', CI, MARK)
})
afterEach(() => t.close())

const pump = (child: ChildProcess) => whileRunning(child, () => clock.advance(400))
const trigger = (more: Record<string, string> = {}) =>
  runBundle(
    'trigger-pipeline',
    {
      'gitlab-url': t.baseUrl,
      project: 'acme/app',
      token: TRIGGER,
      'access-token': MARK,
      'poll-interval': '50ms',
      // `staging` is too short to mask, `two words` has a space: GitLab could mask neither.
      variables: `DEPLOY_KEY=${KEY}\nDEPLOY_ENV=staging\nNOTE=two words`,
      ...more,
    },
    { during: pump },
  )
/** The log as the runner shows it: `::add-mask::` commands are consumed by the runner, never printed. */
const shown = (log: string) =>
  log
    .split('\n')
    .filter((l) => !l.startsWith('::add-mask::'))
    .join('\n')

describe('trigger-pipeline masks the values of its variables', () => {
  it('registers each value GitLab could mask before logging, and masks it in the log tail and the summary', async () => {
    const run = await trigger()
    expect(run.code).toBe(1)
    const masks = run.log.split('\n').filter((l) => l.startsWith('::add-mask::'))
    expect(masks).toContain(`::add-mask::${KEY}`)
    expect(masks.filter((l) => /staging|two words/.test(l))).toEqual([])
    // Registered before the first line the action logs.
    expect(run.log.indexOf(`::add-mask::${KEY}`)).toBeLessThan(run.log.indexOf('Triggering a pipeline'))
    // The job did echo it: the tail shows it masked, in the log and in the summary alike.
    expect(shown(run.log)).toContain('key=*** env=staging note=two words')
    expect(run.summary).toContain('key=*** env=staging note=two words')
    expect(shown(run.log)).not.toContain(KEY)
    expect(run.summary).not.toContain(KEY)
    // The summary names the variables, never their values.
    expect(run.summary).toContain('DEPLOY_KEY, DEPLOY_ENV, NOTE')
  })

  it("'mask-variables: false' leaves the values as the job printed them", async () => {
    const run = await trigger({ 'mask-variables': 'false' })
    expect(run.code).toBe(1)
    expect(run.log).not.toContain(`::add-mask::${KEY}`)
    expect(run.summary).toContain(`key=${KEY} env=staging`)
  })
})
