import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/*
 * The collections of src/server/archive/garbage.ts expose V8's `gc` by turning a V8 flag on; V8 stamps code
 * caches with a hash of its flags, so serve's own code cache (src/cli/serve-script.ts), written as
 * it exits, must still be taken by the next start. Two processes: one collects, then caches a
 * script; a fresh one reads that cache.
 */
const GARBAGE = join(__dirname, '..', '..', '..', 'src', 'server', 'archive', 'garbage.ts')
const SOURCE = 'function add(a, b) { return a + b }; add(1, 2)'

let work: string
beforeAll(() => (work = mkdtempSync(join(tmpdir(), 'garbage-'))))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const node = (args: string[], script: string) =>
  execFileSync(process.execPath, [...args, '--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  }).trim()

it('a code cache made after both collections is taken by a fresh process', () => {
  const cache = join(work, 'script.cache')
  node(
    ['--import', 'tsx'],
    `import { writeFileSync } from 'node:fs'
     import { Script } from 'node:vm'
     const { collectYoungGarbage, collectAfterJob, BIG_JOB_BYTES } = await import(${JSON.stringify(GARBAGE)})
     collectYoungGarbage()
     collectAfterJob(BIG_JOB_BYTES)
     await new Promise((resolve) => setTimeout(resolve, 300)) // the collection runs 100 ms later
     const script = new Script(${JSON.stringify(SOURCE)})
     script.runInThisContext()
     writeFileSync(${JSON.stringify(cache)}, script.createCachedData())`,
  )
  const rejected = node(
    [],
    `import { readFileSync } from 'node:fs'
     import { Script } from 'node:vm'
     const script = new Script(${JSON.stringify(SOURCE)}, { cachedData: readFileSync(${JSON.stringify(cache)}) })
     process.stdout.write(String(script.cachedDataRejected))`,
  )
  expect(rejected).toBe('false')
})
