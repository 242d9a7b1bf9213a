#!/usr/bin/env node
// `npm run bundle`: one ncc bundle per action entry (src/actions/<name>/main.ts -> dist/<name>/index.js),
// as actions/cache builds one per entry. tsc compiles the entries (and only what they import) into
// build/bundle-src first, so a type error elsewhere in the tree cannot block or leak into a bundle;
// ncc then bundles the JavaScript with every dependency and writes the licences beside it.
// Fails when a bundle pulls in src/server (the reference server and its store never ship in an action).
// Then dist/serve/index.js, the one-file server of actions/serve and the container: esbuild bundles
// the CLI's `serve` with every dependency into one ES module that needs only Node 24's built-ins.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { compactFastifyRoutes } from './compact-fastify-routes.mjs'
import { dedupePackages } from './dedupe-packages.mjs'
import { lazyBuiltins, lazyBuiltinsInNcc } from './lazy-builtins.mjs'
import { LAZY_FILE, lazyModulesInNcc } from './lazy-modules.mjs'
import { lazyRouterCode } from './lazy-router-code.mjs'
import { loadTimeChecks } from './load-time-checks.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const bin = (name) => join(root, 'node_modules', '.bin', name)
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' })

const only = process.argv.slice(2)
const names = readdirSync(join(root, 'src/actions'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(root, 'src/actions', d.name, 'main.ts')))
  .map((d) => d.name)
  .filter((name) => only.length === 0 || only.includes(name))
  .sort()

if (names.length > 0) {
  rmSync(join(root, 'build/bundle-src'), { recursive: true, force: true })
  run(bin('tsc'), ['-p', 'tsconfig.actions.json'])
  if (existsSync(join(root, 'build/bundle-src/server')))
    throw new Error('an action imports src/server (the reference server): bundles must not contain it')
}

for (const name of names) {
  const out = join(root, 'dist', name)
  const stats = join(root, 'build/bundle-src', `${name}.ncc-stats.json`)
  rmSync(out, { recursive: true, force: true })
  run(bin('ncc'), [
    'build',
    `build/bundle-src/actions/${name}/main.js`,
    '-o',
    `dist/${name}`,
    '--license',
    'licenses.txt',
    '--stats-out',
    stats,
    '--quiet',
  ])
  // node:http2 (scripts/lazy-builtins.mjs) and undici's rarely taken paths (scripts/lazy-modules.mjs)
  // load on first use.
  const split = lazyModulesInNcc(
    lazyBuiltinsInNcc(readFileSync(join(out, 'index.js'), 'utf8'), name),
    stats,
    name,
  )
  writeFileSync(join(out, 'index.js'), split.main)
  if (split.lazy) {
    writeFileSync(join(out, LAZY_FILE), split.lazy)
    run(bin('esbuild'), [
      join(out, LAZY_FILE),
      '--minify',
      '--format=cjs',
      '--platform=node',
      '--target=node24',
      `--outfile=${join(out, LAZY_FILE)}`,
      '--allow-overwrite',
      '--log-level=warning',
    ])
  }
  // Minified after ncc: an action loads its whole bundle at every start, and V8 reads a third of
  // the bytes faster (ncc's own -m fails on this output). Chunks loaded later stay as ncc wrote them.
  // Without --keep-names: its defineProperty call for every function and class made at load cost 6%
  // of the instructions to the first request, and no code here reads a minified name (the project's
  // errors, undici's and Octokit's name themselves).
  run(bin('esbuild'), [
    join(out, 'index.js'),
    '--minify',
    '--format=esm',
    '--platform=node',
    '--target=node24',
    `--outfile=${join(out, 'index.js')}`,
    '--allow-overwrite',
    '--log-level=warning',
  ])
  // (No text search for `node:sqlite`: undici names it for its optional cache store. The
  // build/bundle-src/server check above is what keeps the store out.)
  const text = readFileSync(join(out, 'index.js'), 'utf8')
  process.stdout.write(`dist/${name}/index.js  ${(text.length / 1024).toFixed(0)} KiB\n`)
}

if (only.length === 0 || only.includes('serve')) {
  const outfile = join(root, 'dist/serve/index.js')
  rmSync(dirname(outfile), { recursive: true, force: true })
  const { metafile } = await build({
    entryPoints: [join(root, 'src/cli/one-file-server.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    minify: true,
    plugins: [
      loadTimeChecks(),
      dedupePackages(root),
      lazyBuiltins(),
      lazyRouterCode(),
      compactFastifyRoutes(),
    ],
    keepNames: true,
    legalComments: 'eof',
    // Bundled CommonJS code calls `require` for Node's built-ins; an ES module has none of its own.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    metafile: true,
    logLevel: 'warning',
  })
  const builtin = (path) => path.startsWith('node:') || builtinModules.includes(path.split('/')[0])
  const outside = Object.values(metafile.outputs)
    .flatMap((output) => output.imports)
    .filter((i) => i.external && !builtin(i.path))
    .map((i) => i.path)
  if (outside.length > 0)
    throw new Error(`dist/serve/index.js leaves out ${[...new Set(outside)].join(', ')}`)
  process.stdout.write(`dist/serve/index.js  ${(readFileSync(outfile).length / 1024).toFixed(0)} KiB\n`)
}
