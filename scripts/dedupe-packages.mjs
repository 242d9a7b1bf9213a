// An esbuild plugin for scripts/bundle-cli.mjs: every copy of a package at the same version is
// bundled as one. npm nests identical copies when the top level holds another version (eslint's
// ajv 6 keeps three copies of ajv 8 apart, for fastify, fast-json-stringify and ajv-formats);
// bundled as they are, `serve` would compile and run each at start-up.
import { existsSync, readFileSync, realpathSync } from 'node:fs'
import { join, sep } from 'node:path'

/** The installed copies of each package found more than once at one version: [copy dir, the one kept]. */
function duplicateCopies(root) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'))
  const byVersion = new Map()
  for (const path of Object.keys(lock.packages ?? {})) {
    const dir = join(root, path)
    if (!path.includes('node_modules/') || !existsSync(join(dir, 'package.json'))) continue
    // What is on disk decides, not the lockfile: a copy is kept only with its own exact version.
    const { name, version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
    const key = `${name}@${version}`
    byVersion.set(key, [...(byVersion.get(key) ?? []), realpathSync(dir) + sep])
  }
  const copies = new Map()
  for (const [key, dirs] of byVersion) {
    if (dirs.length < 2) continue
    // The first in path order is kept, so that every build makes the same bundle.
    const [kept, ...others] = dirs.sort()
    const name = key.slice(0, key.lastIndexOf('@'))
    copies.set(
      name,
      others.map((dir) => [dir, kept]),
    )
  }
  return copies
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

export function dedupePackages(root) {
  return {
    name: 'dedupe-packages',
    setup(build) {
      const copies = duplicateCopies(root)
      if (copies.size === 0) return
      const filter = new RegExp(`^(${[...copies.keys()].map(escape).join('|')})(/|$)`)
      const again = Symbol('resolving')
      build.onResolve({ filter }, async ({ path, importer, resolveDir, kind, pluginData }) => {
        if (pluginData === again) return undefined
        const found = await build.resolve(path, { importer, resolveDir, kind, pluginData: again })
        if (found.errors.length > 0 || found.external) return undefined
        const name = filter.exec(path)[1]
        for (const [dir, kept] of copies.get(name))
          if (found.path.startsWith(dir))
            return { path: kept + found.path.slice(dir.length), sideEffects: found.sideEffects }
        return { path: found.path, sideEffects: found.sideEffects }
      })
    },
  }
}
