// An esbuild plugin for serve.cjs (scripts/bundle-cli.mjs): packages a plain start of `serve` never
// runs, each bundled into a CommonJS file of its own beside serve.cjs (`serve-<name>-<hash>.cjs`),
// which a stand-in in serve.cjs requires the first time one of the package's exports is read. A start
// then neither reads nor holds them (serve.cjs's source is kept for the life of the process), nor
// evaluates those it loaded only to keep: undici (a start makes no outbound request), the seed's YAML
// parsers (a start from a seeded image, or with no seed, parses none; they were evaluated at every
// start), qs (a flat query needs none; also evaluated at start), tar-stream and aws4 (exports and
// imports), pino (Fastify's logger, off unless asked for), light-my-request (Fastify's `inject`) and
// busboy (a multipart body's parser, which @fastify/multipart loaded with itself), fast-json-stringify
// (with ajv, its formats and its schema tools: the serializers of the first answers are written at build
// time, scripts/prebuilt-serializers.mjs, and the others compile on their route's first answer) and
// Fastify's default validator compiler (another ajv; the server sets its own, src/server/http/edge.ts),
// and cron-parser with luxon (pipeline schedules' cron lines: read when a schedule is saved or runs).
// Each file's hash is in serve.cjs, so that serve.cjs's checksum (the seeded images' key, and its
// code cache's name) changes with any of them. The one-file server (scripts/bundle.mjs) stays one file.
import { createHash } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, join, relative } from 'node:path'
import { build } from 'esbuild'
import { assertAscii } from './one-byte-source.mjs'

/** The packages made lazy: each exports an object, whose properties the stand-in forwards, or a function. */
const PACKAGES = [
  'undici',
  'yaml',
  'js-yaml',
  'qs',
  'tar-stream',
  'aws4',
  'pino',
  'light-my-request',
  '@fastify/busboy',
  'fast-json-stringify',
  '@fastify/ajv-compiler',
  'cron-parser',
]

const SKIP = Symbol('lazy-packages: resolving')
const chunkName = (name) => name.replace(/^@/, '').replaceAll('/', '-')

/** The stand-in's source for `pkg`, whose chunk is `file` (a sibling of serve.cjs) exporting `real`. */
function standIn(pkg, file, real) {
  const load = `let real; const load = () => (real ??= require(${JSON.stringify(`./${file}`)}));\n`
  const names = Object.keys(real).filter((key) => key !== 'default' && key !== '__esModule')
  const getters = names
    .map((key) => `${JSON.stringify(key)}: { enumerable: true, get: () => load()[${JSON.stringify(key)}] }`)
    .join(',\n')
  if (typeof real === 'function')
    return (
      load +
      'module.exports = Object.defineProperties(function (...args) {\n' +
      '  return new.target ? Reflect.construct(load(), args, new.target) : load().apply(this, args);\n' +
      `}, {${getters}});\n`
    )
  if (typeof real !== 'object' || real === null)
    throw new Error(`${pkg} exports neither an object nor a function`)
  const esModule = real.__esModule ? `"__esModule": { value: true },\n` : ''
  return load + `module.exports = Object.defineProperties({}, {${esModule}${getters}});\n`
}

/** Whether `path`, an import serve.cjs leaves to run time, is one of its chunks. */
export const isServeChunk = (path) => /^\.\/serve-.+\.cjs$/.test(path)

/**
 * For the serve build: `options` are the build's (its plugins, target...), `outdir` where serve.cjs
 * goes. Each package's chunk is built once, and its metafile added to `metafiles` (the caller's account
 * of the bundle).
 */
export function lazyPackages({ root, outdir, options, metafiles }) {
  const filter = new RegExp(`^(${PACKAGES.map((p) => p.replace(/[./]/g, '\\$&')).join('|')})$`)
  return {
    name: 'lazy-packages',
    setup(b) {
      b.onResolve({ filter }, async (args) => {
        if (args.pluginData === SKIP) return undefined
        // The copy the importer would get (a nested one, if npm nested it), through the other plugins.
        const found = await b.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: SKIP,
        })
        if (found.errors.length > 0) return { errors: found.errors }
        // One stand-in per copy of the package, named as CommonJS, which it is (an ES package's path
        // would make esbuild read it as ESM), and not as a file (the account names only files bundled).
        const copy = createHash('sha256').update(relative(root, found.path)).digest('hex').slice(0, 8)
        return {
          path: `${args.path}#${copy}.cjs`,
          namespace: 'lazy-package',
          pluginData: { pkg: args.path, file: found.path },
        }
      })
      b.onResolve({ filter: /^\.\/serve-.+\.cjs$/ }, (args) =>
        args.namespace === 'lazy-package' ? { path: args.path, external: true } : undefined,
      )
      b.onLoad({ filter: /.*/, namespace: 'lazy-package' }, async (args) => {
        const pkg = args.pluginData.pkg
        const name = `serve-${chunkName(pkg)}`
        const chunk = await build({
          ...options,
          stdin: {
            contents: `module.exports = require(${JSON.stringify(args.pluginData.file)})`,
            resolveDir: root,
          },
          outfile: join(outdir, `${name}.cjs`),
          format: 'cjs',
          legalComments: 'linked',
          write: false,
        })
        // Named after its content, the source map's link too (written, the files would not be).
        const code = chunk.outputFiles.find((f) => f.path.endsWith('.cjs'))
        const hash = createHash('sha256').update(code.contents).digest('hex').slice(0, 8)
        const file = `${name}-${hash}.cjs`
        for (const out of chunk.outputFiles) {
          const text = out === code ? out.text.replace(`${name}.cjs.map`, `${file}.map`) : out.text
          writeFileSync(join(outdir, basename(out.path).replace(`${name}.cjs`, file)), text)
        }
        metafiles.push(chunk.metafile)
        assertAscii(join(outdir, file))
        const real = createRequire(import.meta.url)(join(outdir, file))
        return { contents: standIn(pkg, file, real), loader: 'js', resolveDir: outdir }
      })
    },
  }
}
