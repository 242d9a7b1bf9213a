#!/usr/bin/env node
// Part of `npm run build`: bundles the package's main entry (build/api/index.js, from tsc) into one
// module, build/client/index.js, which `import 'gitlab-actions'` loads (TypeBox's value checker, which
// only a client made with `validate` imports, is a chunk beside it). Unbundled, the client brings
// in about 1,040 modules (TypeBox's whole builder and value libraries among them) and keeps their
// source text on the heap: 3.4 MB after import, against 1.2 MB bundled. That heap is what V8's
// first full collection has to mark, and what pushes a process listing thousands of issues over
// the limit that starts it. undici stays outside (a dependency, shared with the caller's own copy);
// the check below keeps it the only one. Types still come from build/api/*.d.ts.
import { build } from 'esbuild'
import { rmSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { importsOutside } from './bundle-imports.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const outdir = resolve(root, 'build/client')
rmSync(outdir, { recursive: true, force: true })
const result = await build({
  absWorkingDir: root,
  entryPoints: [resolve(root, 'build/api/index.js')],
  outdir,
  splitting: true,
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  // Whitespace only: names stay as written, so stack traces read as the source does.
  minifyWhitespace: true,
  external: ['undici', 'undici/*'],
  metafile: true,
  logLevel: 'warning',
})
const outside = importsOutside(result.metafile, (path) => path === 'undici' || path.startsWith('undici/'))
if (outside.length > 0) throw new Error(`the client bundle imports ${outside.join(', ')}`)
