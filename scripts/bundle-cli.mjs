#!/usr/bin/env node
// Part of `npm run build`: bundles the CLI (build/cli/main.js, from tsc) into build/cli-bundle/,
// which bin/gitlab-actions.js runs. Node 20 spends most of `serve`'s start-up resolving and linking
// some 400 ES modules one by one (TypeBox alone has 266); a few bundled chunks load in a fraction of
// that. Dynamic imports stay separate chunks, so `serve` never loads the client or the actions.
// better-sqlite3 stays outside: it is native and is loaded from node_modules.
import { build } from 'esbuild'
import { rmSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const outdir = resolve(root, 'build/cli-bundle')
rmSync(outdir, { recursive: true, force: true })
await build({
  entryPoints: [resolve(root, 'build/cli/main.js')],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3'],
  // Bundled CommonJS code calls `require` for Node's built-ins; an ES module has none of its own.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  sourcemap: 'linked',
  logLevel: 'warning',
})
