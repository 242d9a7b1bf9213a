// An esbuild plugin for scripts/bundle-cli.mjs: serve.cjs gets the fast-json-stringify serializers of
// the schemas named below written at build time (fast-json-stringify's standalone mode), instead of
// compiling them with `new Function` when a route first answers with one. Code made by `new Function`
// is compiled again by every start (V8's code cache of serve.cjs cannot hold it): the Issue
// serializer's 74 KB of generated code cost a 1,000-issue cold start's first list some 8 ms of
// compiling and first running, on top of making it (ajv checking the schema). The code is the one
// the server compiles at run time (src/server/http/edge.ts): the same schema, through the same
// serializerSchema, by the same fast-json-stringify; without this plugin (tests, startServer())
// the server compiles it then, as before. CurrentUser is `GET /user`'s, an empty start's usual first
// answer, and ProjectList `GET /projects`', the usual first list of a start with the built-in seed:
// with them written too, those starts and a 1,000-issue one's first list load neither
// fast-json-stringify (a chunk of its own, scripts/lazy-packages.mjs) nor ajv.
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

/** The response schemas (exports of src/schema) whose serializers are written at build time. */
export const PREBUILT = ['Issue', 'CurrentUser', 'ProjectList']

const NAMESPACE = 'prebuilt-serializer'

/** The standalone serializer of schema `name` as a CommonJS module, from the built tree in `root`. */
export async function serializerSource(root, name) {
  const require = createRequire(resolve(root, 'package.json'))
  const fastJson = require('fast-json-stringify')
  const { serializerSchema } = await import(
    pathToFileURL(resolve(root, 'build/server/http/serializer-schema.js')).href
  )
  const schemas = await import(pathToFileURL(resolve(root, 'build/schema/index.js')).href)
  if (!schemas[name]) throw new Error(`prebuilt-serializers: src/schema exports no ${name}`)
  const code = fastJson(serializerSchema(schemas[name]), { mode: 'standalone' })
  // serializerSchema leaves no union for ajv to validate: the code needs fast-json-stringify's serializer only.
  if (!code.includes('const validator = null'))
    throw new Error(`prebuilt-serializers: the ${name} serializer needs a validator`)
  return code
}

/** The plugin: build/server/http/prebuilt-serializers.js becomes a lookup of the serializers above. */
export function prebuiltSerializers(root) {
  return {
    name: 'prebuilt-serializers',
    setup(build) {
      build.onLoad({ filter: /[\\/]build[\\/]server[\\/]http[\\/]prebuilt-serializers\.js$/ }, () => ({
        // Each serializer's module runs the first time it is asked for (require, not import).
        contents: [
          `import { ${PREBUILT.join(', ')} } from '../../schema/index.js'`,
          'export function prebuiltSerializer(schema) {',
          ...PREBUILT.map((name) => `  if (schema === ${name}) return require('${NAMESPACE}:${name}')`),
          '  return undefined',
          '}',
        ].join('\n'),
        loader: 'js',
      }))
      build.onResolve({ filter: new RegExp(`^${NAMESPACE}:`) }, (args) => ({
        path: args.path.slice(NAMESPACE.length + 1),
        namespace: NAMESPACE,
      }))
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, async (args) => ({
        contents: await serializerSource(root, args.path),
        loader: 'js',
        resolveDir: root,
      }))
    },
  }
}
