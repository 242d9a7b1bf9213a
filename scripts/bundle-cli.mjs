#!/usr/bin/env node
// Part of `npm run build`: bundles the CLI (build/cli/main.js, from tsc) into build/cli-bundle/,
// which bin/gitlab-actions.js runs. Node spends most of `serve`'s start-up resolving and linking
// some 400 ES modules one by one (TypeBox alone has 266); a few bundled chunks load in a fraction of
// that. Dynamic imports stay separate chunks, so `serve` never loads the client or the actions.
// Everything is bundled but Node's built-ins (the store is node:sqlite); the check below keeps it so.
import { build } from 'esbuild'
import { rmSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { importsOutside } from './bundle-imports.mjs'
import { compactFastifyRoutes } from './compact-fastify-routes.mjs'
import { dedupePackages } from './dedupe-packages.mjs'
import { lazyBuiltins } from './lazy-builtins.mjs'
import { loadTimeChecks } from './load-time-checks.mjs'
import { isServeChunk, lazyPackages } from './lazy-packages.mjs'
import { lazyRouterCode } from './lazy-router-code.mjs'
import { assertAscii } from './one-byte-source.mjs'
import { prebuiltSerializers } from './prebuilt-serializers.mjs'
import { seedCheck } from './seed-check.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const outdir = resolve(root, 'build/cli-bundle')
rmSync(outdir, { recursive: true, force: true })
const shared = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node24',
  // Start-up time: V8 scans every byte of a chunk it loads; without the indentation and comments
  // there is a third less to scan. Names stay (stack traces, and Fastify names plugins by them).
  minifyWhitespace: true,
  plugins: [
    loadTimeChecks(),
    dedupePackages(root),
    lazyBuiltins(),
    lazyRouterCode(),
    compactFastifyRoutes(),
    seedCheck(root),
  ],
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
}
const cli = await build({
  ...shared,
  entryPoints: [resolve(root, 'build/cli/main.js')],
  outdir,
  splitting: true,
  format: 'esm',
  // Bundled CommonJS code calls `require` for Node's built-ins; an ES module has none of its own.
  // (node:module taken, not imported: see src/cli/serve-script.ts on built-ins' module facades.)
  banner: {
    js: "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);",
  },
})
// `serve` is one CommonJS script beside the chunks: src/cli/serve-script.ts runs it as a vm.Script,
// whose V8 code cache can be kept after a run (lazily compiled functions included).
// The file is the CommonJS wrapper with the module inside, as the script runs it: a wrapper added
// when it is read would make V8 copy the 2.1 MB source into a second string, held until a full GC.
// Packages a start never runs are files of their own beside it, read on first use (lazy-packages.mjs).
// The serializers of the first answers (Issue, CurrentUser) are written at build time (prebuilt-serializers.mjs).
const chunks = []
const serve = await build({
  ...shared,
  plugins: [
    prebuiltSerializers(root),
    lazyPackages({ root, outdir, options: shared, metafiles: chunks }),
    ...shared.plugins,
  ],
  entryPoints: [resolve(root, 'build/cli/serve.js')],
  outfile: resolve(outdir, 'serve.cjs'),
  format: 'cjs',
  banner: { js: '(function (exports, require, module, __filename, __dirname) {' },
  footer: { js: '})' },
  // One byte per character in memory (scripts/one-byte-source.mjs): licence comments, whose names
  // may fall outside ASCII, go to serve.cjs.LEGAL.txt beside it.
  legalComments: 'linked',
})
assertAscii(resolve(outdir, 'serve.cjs'))
const metafiles = [cli.metafile, serve.metafile, ...chunks]
const metafile = {
  inputs: Object.assign({}, ...metafiles.map((m) => m.inputs)),
  outputs: Object.assign({}, ...metafiles.map((m) => m.outputs)),
}
const outside = importsOutside(metafile, isServeChunk)
if (outside.length > 0) throw new Error(`the CLI bundle leaves out ${outside.join(', ')}`)
// What went into each chunk, for review and for test/delivery/cli-bundle.test.ts (not packed).
writeFileSync(`${outdir}.meta.json`, JSON.stringify(metafile))
