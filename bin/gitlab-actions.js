#!/usr/bin/env node
// The CLI runs the bundled build in build/cli-bundle/ (made by `npm run build`, which `npm ci` runs
// as `prepare`; see scripts/bundle-cli.mjs). The reference server's store is Node's built-in
// node:sqlite, so an older Node is told what to install instead of failing on a missing module.
const major = Number(process.versions.node.split('.')[0])
if (major < 24) {
  process.stderr.write(`gitlab-actions needs Node.js 24 or later; this is ${process.version}\n`)
  process.exit(2)
}
// V8 keeps the compiled bundle on disk (os.tmpdir()/node-compile-cache, keyed by file content), so a
// second start skips compiling it (a fifth of `serve`'s start-up); `serve` keeps a fuller cache of its
// own script there (src/cli/serve-script.ts). NODE_DISABLE_COMPILE_CACHE=1 turns both off; where the
// cache cannot be written (a read-only tmpdir), Node compiles as before.
// (Taken, not imported: an ES import of a built-in makes a module facade, see src/cli/serve-script.ts.)
const { enableCompileCache } = process.getBuiltinModule('node:module')
enableCompileCache()
const { main } = await import('../build/cli-bundle/main.js')

main(process.argv.slice(2)).then(
  (code) => {
    if (typeof code === 'number') process.exitCode = code
  },
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`)
    process.exitCode = 1
  },
)
