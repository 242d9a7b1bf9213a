import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

/*
 * The README's test-suite example, run as a user's Jest would run it: the code block is taken from
 * README.md as it is, only `'gitlab-actions/server'` points at the source, and Jest runs it in a
 * child process. The README's example breaking fails this test.
 */
const root = resolve(__dirname, '..')

function readmeExample(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  const block = /```ts\n(import { startServer[^\n]*'gitlab-actions\/server'\n[\s\S]*?)```/.exec(readme)?.[1]
  if (!block)
    throw new Error("README.md has no ```ts block importing startServer from 'gitlab-actions/server'")
  return block
}

it("README's startServer example passes as a Jest test", () => {
  const code = readmeExample().replace("'gitlab-actions/server'", `'${join(root, 'src/server/start')}'`)
  expect(code).not.toBe(readmeExample())
  const dir = join(root, 'build', 'readme-example')
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'readme.test.ts'), code)
  try {
    const jest = require.resolve('jest/bin/jest')
    const run = spawnSync(
      process.execPath,
      [jest, '--ci', '--roots', dir, '--', join(dir, 'readme.test.ts')],
      {
        cwd: root,
        encoding: 'utf8',
      },
    )
    expect(run.stderr).toMatch(/Tests: +1 passed, 1 total/)
    expect(run.status).toBe(0)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
