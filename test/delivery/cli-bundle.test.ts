/*
 * The CLI bundle (build/cli-bundle, made by `npm run build`) as scripts/bundle-cli.mjs makes it:
 * read through esbuild's account of it (build/cli-bundle.meta.json), which names every file bundled.
 */
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

const root = resolve(__dirname, '../..')
const meta = join(root, 'build/cli-bundle.meta.json')

/** Every bundled file of an installed package, as an absolute path. */
function bundledPackageFiles(): string[] {
  const { inputs } = JSON.parse(readFileSync(meta, 'utf8')) as { inputs: Record<string, unknown> }
  return Object.keys(inputs)
    .filter((input) => input.includes('node_modules/'))
    .map((input) => resolve(root, input))
}

/** The installed package a file belongs to: its directory, name and version. */
function packageOf(file: string): { dir: string; id: string } {
  const at = file.lastIndexOf('node_modules/') + 'node_modules/'.length
  const rest = file.slice(at).split('/')
  const dir = file.slice(0, at) + rest.slice(0, rest[0]!.startsWith('@') ? 2 : 1).join('/')
  const { name, version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    name: string
    version: string
  }
  return { dir, id: `${name}@${version}` }
}

describe('the CLI bundle', () => {
  it('holds one copy of each package version, however many copies npm installed', () => {
    const dirs = new Map<string, Set<string>>()
    for (const file of bundledPackageFiles()) {
      const { dir, id } = packageOf(file)
      dirs.set(id, (dirs.get(id) ?? new Set()).add(dir))
    }
    expect(dirs.get('fastify')).toBeUndefined() // ids carry a version: the check reads them
    expect([...dirs.keys()].some((id) => id.startsWith('ajv@8.'))).toBe(true)
    const repeated = [...dirs].filter(([, found]) => found.size > 1).map(([id]) => id)
    expect(repeated).toEqual([])
  })
})
