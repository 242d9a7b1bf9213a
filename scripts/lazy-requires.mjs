// An esbuild plugin for scripts/bundle-cli.mjs: Node modules a package requires at load but only
// uses behind options we never set, loaded on their first use instead. Fastify requires node:https
// (with all of TLS) and node:http2 for its `https` and `http2` options; loading them was 7% of
// `serve`'s start-up. Only the files named here are changed, where each use is a property read
// (`https.createServer(...)`), which the stand-in passes through.

/** The package file (a path ending) and the Node modules it gets lazily. */
const LAZY = [{ file: '/node_modules/fastify/lib/server.js', modules: ['node:https', 'node:http2'] }]

export function lazyRequires() {
  return {
    name: 'lazy-requires',
    setup(build) {
      const filter = new RegExp(`^(${LAZY.flatMap((l) => l.modules).join('|')})$`)
      build.onResolve({ filter }, ({ path, importer, kind }) => {
        const from = importer.replaceAll('\\', '/')
        const lazy = LAZY.some((l) => from.endsWith(l.file) && l.modules.includes(path))
        return lazy && kind === 'require-call' ? { path, namespace: 'lazy-require' } : undefined
      })
      build.onLoad({ filter: /.*/, namespace: 'lazy-require' }, ({ path }) => ({
        contents: `module.exports = new Proxy({}, { get: (_, key) => require(${JSON.stringify(path)})[key] })`,
        loader: 'js',
      }))
    },
  }
}
