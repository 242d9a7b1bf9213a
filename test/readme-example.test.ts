import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

/*
 * The test-suite examples of README.md and docs/server.md, run as a user's Jest would run them: each
 * code block is taken from its file as it is, only `'gitlab-actions/server'` points at the source, and Jest runs it in a
 * child process. The README's examples breaking fails these tests.
 */
const root = resolve(__dirname, '..')

/** The ```ts block of `file` whose first line is `firstLine`. */
function docBlock(file: string, firstLine: string): string {
  const text = readFileSync(join(root, file), 'utf8')
  const start = text.indexOf('```ts\n' + firstLine)
  if (start < 0) throw new Error(`${file} has no \`\`\`ts block starting ${firstLine}`)
  const code = text.slice(start + 6)
  return code.slice(0, code.indexOf('```'))
}

/** Runs `code` as a Jest test file in a child Jest, with the package import pointing at the source. */
function runAsJest(name: string, code: string) {
  const local = code.replace("'gitlab-actions/server'", `'${join(root, 'src/server/start/start-server')}'`)
  expect(local).not.toBe(code)
  const dir = join(root, 'build', `readme-${name}`)
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, `${name}.test.ts`), local)
  try {
    const jest = require.resolve('jest/bin/jest')
    const run = spawnSync(
      process.execPath,
      [jest, '--ci', '--roots', dir, '--', join(dir, `${name}.test.ts`)],
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
}

it("README's startServer example passes as a Jest test", () => {
  runAsJest(
    'seed',
    docBlock('README.md', "import { startServer, type RunningServer } from 'gitlab-actions/server'"),
  )
})

it("docs/server.md's world-through-the-API example runs with gitbeaker, and its reset leaves root alone", () => {
  const block = docBlock('docs/server.md', "import { Gitlab } from '@gitbeaker/rest'")
  const lines = block.split('\n')
  const imports = lines.filter((l) => l.startsWith('import '))
  // The block is a script: it runs as one test, with checks around its reset.
  const body = lines
    .filter((l) => !l.startsWith('import '))
    .flatMap((l) =>
      l.startsWith('await gitlab.reset()')
        ? [
            "expect((await root.Issues.all({ projectId: project.id })).map((i) => i.title)).toEqual(['First issue'])",
            l,
            'expect((await root.Projects.all()).map((p) => p.path_with_namespace)).toEqual([])',
            "expect((await root.Users.all()).map((u) => u.username)).toEqual(['root'])",
          ]
        : [l],
    )
  expect(body.filter((l) => l.startsWith('expect('))).toHaveLength(3)
  const code = `${imports.join('\n')}\n\nit('runs', async () => {\n${body.join('\n')}\n}, 60_000)\n`
  runAsJest('api-world', code)
})
