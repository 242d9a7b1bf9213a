// `node --import tsx scripts/summary-picture.ts [out.png]`: regenerates docs/images/trigger-pipeline-summary.png,
// the README's picture of trigger-pipeline's job summary after a failed run. It runs the action (src, in
// this process) against the reference server with a .gitlab-ci.yml whose `strategy: depend` child pipeline
// fails, renders the summary the action wrote as GitHub shows it (roughly: GitHub's fonts and table
// style), opens the folded log tail, and screenshots it in Debian's chromium with its emoji font
// (`apt-get install -y chromium fonts-noto-color-emoji`).
import { mkdirSync, rmSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ActionIO } from '../src/actions/io.js'
import { run } from '../src/actions/trigger-pipeline/run.js'
import { launchChromium } from '../test/support/browser.js'
import { commitFiles } from '../test/support/ci-files.js'
import { manualClock } from '../test/support/pipeline-seed.js'
import { startServer } from '../test/support/server.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const out = resolve(process.argv[2] ?? join(root, 'docs/images/trigger-pipeline-summary.png'))
const TRIGGER = `glptt-${'c9'.repeat(20)}`
const READER = 'glpat-reader-0123456789abcdef'

const clock = manualClock()
const t = await startServer(
  `
users:
  - { username: root, admin: true, token: glpat-root-token }
  - { username: mark, token: ${READER} }
groups: [ { path: acme, members: { mark: maintainer } } ]
projects:
  - { path: acme/app, triggers: [ { description: deploy, owner: mark, token: ${TRIGGER} } ] }
`,
  { clock },
)
await commitFiles(
  t,
  'acme/app',
  'main',
  {
    '.gitlab-ci.yml': `
build:
  stage: build
  script: [echo built > dist.txt]
  artifacts: { paths: [dist.txt] }
tests:
  stage: test
  trigger: { include: ci/tests.yml, strategy: depend }
`,
    'ci/tests.yml': `
unit:
  script:
    - echo "PASS  src/api/client.test.ts"
    - echo "FAIL  src/api/pipelines.test.ts"
    - echo "  ● waitForPipeline › stops at manual"
    - 'echo "    Expected: manual, received: running"'
    - exit 1
lint:
  script: [echo clean]
`,
  },
  READER,
)

const work = mkdtempSync(join(tmpdir(), 'gla-summary-picture-'))
const inputs: Record<string, string> = {
  'gitlab-url': t.baseUrl,
  project: 'acme/app',
  token: TRIGGER,
  'access-token': READER,
  'poll-interval': '50ms',
  'log-lines': '9',
  'download-artifacts': 'build',
  'artifacts-path': join(work, 'artifacts'),
}
let html = ''
const io: ActionIO = {
  getInput: (name) => inputs[name] ?? '',
  getEnv: () => undefined,
  setSecret: () => undefined,
  setOutput: () => undefined,
  info: () => undefined,
  warning: () => undefined,
  debug: () => undefined,
  summary: async (text) => void (html += text),
  fail: () => undefined,
}
// The server's pipelines move only when its clock does: move it while the action waits.
const ticking = setInterval(() => clock.advance(400), 20)
try {
  await run(io)
} finally {
  clearInterval(ticking)
  await t.close()
  rmSync(work, { recursive: true, force: true })
}
// The picture shows the addresses of a GitLab, not of the server's random port.
html = html.replaceAll(t.baseUrl, 'https://gitlab.example.com')

const page = `<!doctype html><meta charset="utf-8"><style>
body { font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; color: #1f2328;
  margin: 0; padding: 16px 24px; width: 860px; background: #fff }
h2 { font-size: 1.5em; border-bottom: 1px solid #d1d9e0; padding-bottom: .3em; margin: 0 0 16px }
h3 { font-size: 1.25em; margin: 24px 0 12px }
table { border-collapse: collapse; margin: 0 0 16px } th, td { border: 1px solid #d1d9e0; padding: 6px 13px; text-align: left }
a { color: #0969da; text-decoration: none } code { background: #eff1f3; border-radius: 6px; padding: .2em .4em; font-size: 85% }
pre { background: #f6f8fa; border-radius: 6px; padding: 12px 16px; font: 12px/1.45 ui-monospace, "DejaVu Sans Mono", monospace }
ul { padding-left: 2em } summary { cursor: pointer; margin: 8px 0 }
</style><body>${html}</body>`
const browser = await launchChromium()
try {
  const tab = await browser.newPage({ viewport: { width: 908, height: 600 } })
  await tab.setContent(page)
  await tab.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)))
  mkdirSync(dirname(out), { recursive: true })
  await tab.screenshot({ path: out, fullPage: true })
} finally {
  await browser.close()
}
process.stdout.write(`wrote ${out}\n`)
