#!/usr/bin/env node
// `npm run bundle`: one ncc bundle per action entry (src/actions/<name>/main.ts -> dist/<name>/index.js),
// as actions/cache builds one per entry. tsc compiles the entries (and only what they import) into
// build/bundle-src first, so a type error elsewhere in the tree cannot block or leak into a bundle;
// ncc then bundles the JavaScript with every dependency and writes the licences beside it.
// Fails when a bundle pulls in src/server (the reference server and its store never ship in an action).
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const bin = (name) => join(root, 'node_modules', '.bin', name)
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' })

const only = process.argv.slice(2)
const names = readdirSync(join(root, 'src/actions'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(root, 'src/actions', d.name, 'main.ts')))
  .map((d) => d.name)
  .filter((name) => only.length === 0 || only.includes(name))
  .sort()

rmSync(join(root, 'build/bundle-src'), { recursive: true, force: true })
run(bin('tsc'), ['-p', 'tsconfig.actions.json'])
if (existsSync(join(root, 'build/bundle-src/server')))
  throw new Error('an action imports src/server (the reference server): bundles must not contain it')

for (const name of names) {
  const out = join(root, 'dist', name)
  rmSync(out, { recursive: true, force: true })
  run(bin('ncc'), [
    'build',
    `build/bundle-src/actions/${name}/main.js`,
    '-o',
    `dist/${name}`,
    '--license',
    'licenses.txt',
    '--quiet',
  ])
  // Minified after ncc: an action loads its whole bundle at every start, and V8 reads a third of
  // the bytes faster (ncc's own -m fails on this output). Chunks loaded later stay as ncc wrote them.
  run(bin('esbuild'), [
    join(out, 'index.js'),
    '--minify',
    '--keep-names',
    '--format=esm',
    '--platform=node',
    '--target=node24',
    `--outfile=${join(out, 'index.js')}`,
    '--allow-overwrite',
    '--log-level=warning',
  ])
  const text = readFileSync(join(out, 'index.js'), 'utf8')
  // undici names node:sqlite in its lazily loaded cache store, so the store is looked for by its own name.
  if (text.includes('isConstraintError'))
    throw new Error(`dist/${name}/index.js contains the store (src/server/store/sqlite.ts)`)
  process.stdout.write(`dist/${name}/index.js  ${(text.length / 1024).toFixed(0)} KiB\n`)
}
