import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { docBlocks } from './support/doc-commands.js'

/*
 * Every shell block of README.md and docs/ is run as written by a test or by CI: each says which
 * (`<!-- run: project -->`: test/delivery/package.test.ts, outside the checkout, in a project that
 * installed the packed tarball; `<!-- run: ci -->`: .ci/run). Blocks that cannot run here say why.
 */
const root = resolve(__dirname, '..')
const blocks = docBlocks(root)
const where = (b: { file: string; line: number }) => `${b.file}:${b.line}`

describe('the shell commands of README.md and docs/', () => {
  it('each block names who runs it', () => {
    expect(blocks.length).toBeGreaterThan(5)
    const unmarked = blocks.filter((b) => !/^(project|ci|none \(.+\))$/.test(b.runner)).map(where)
    expect(unmarked).toEqual([])
  })

  it('only the Docker commands go unrun (no container runtime in CI)', () => {
    const unrun = blocks.filter((b) => b.runner.startsWith('none'))
    expect(unrun.map((b) => [b.file, b.code.split(' ')[0]])).toEqual([['docs/server.md', 'docker']])
  })

  it('each command of a `ci` block is a line of .ci/run, as written', () => {
    const ci = readFileSync(resolve(root, '.ci/run'), 'utf8').split('\n')
    const commands = blocks
      .filter((b) => b.runner === 'ci')
      .flatMap((b) => b.code.split('\n'))
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter(Boolean)
    expect(commands).toEqual(['npm ci && npm run demo', 'npm test'])
    for (const command of commands) expect([command, ci.includes(command)]).toEqual([command, true])
  })

  it('the `project` blocks are the ones test/delivery/package.test.ts runs', () => {
    const runner = readFileSync(resolve(root, 'test/delivery/package.test.ts'), 'utf8')
    expect(runner).toMatch(/docBlocks\(root\)\s*\.filter\(\(b\) => b\.runner === 'project'/)
    expect(blocks.filter((b) => b.runner === 'project').length).toBeGreaterThanOrEqual(6)
  })
})
