// An esbuild plugin for scripts/bundle-cli.mjs and the one-file server. find-my-way (Fastify's
// router) compiles code with `new Function` as routes are added: a matcher for every static node
// of its trees, and for every route a params-object builder and a matcher of its handlers by their
// constraints (which Fastify's routes never have, so it is never called), several hundred of each
// at every start of `serve`, code that V8's code cache cannot hold, while a short run uses a few
// (and each compiled function's source and script stay in memory). In the bundle,
// each is compiled the first time the router uses it (the same function, so later calls run as
// before). The build fails if find-my-way's source no longer has the shape expected here.
import { replaceEachOnce } from './source-edits.mjs'

/**
 * Per file of find-my-way: the text replaced (each found exactly once), the functions appended, and
 * per replaced member the calls that must be the only ones (each is made as a method of the object
 * holding the code, so that `this` is that object when it is first called).
 */
const FILES = [
  {
    file: /[\\/]find-my-way[\\/]lib[\\/]node\.js$/,
    edits: [
      [
        'this.matchPrefix = kind === NODE_TYPES.STATIC ? compilePrefixMatch(prefix) : null',
        'this.matchPrefix = kind === NODE_TYPES.STATIC ? matchPrefixOnFirstUse : null',
      ],
      ['this.matchPrefix = compilePrefixMatch(childPrefix)', 'this.matchPrefix = matchPrefixOnFirstUse'],
    ],
    // The node's prefix is the one its matcher must test (a split sets both again).
    appended: `
function matchPrefixOnFirstUse (path, i) {
  this.matchPrefix = compilePrefixMatch(this.prefix)
  return this.matchPrefix(path, i)
}
`,
    calls: [[/\.matchPrefix\(/g, ['staticChild.matchPrefix(path, pathIndex)']]],
  },
  {
    file: /[\\/]find-my-way[\\/]lib[\\/]handler-storage\.js$/,
    edits: [
      [
        '_createParamsObject: this._compileCreateParamsObject(params)',
        '_createParamsObject: createParamsObjectOnFirstUse',
      ],
      [
        'this._compileGetHandlerMatchingConstraints(constrainer, constraints)',
        'this._constrainer = constrainer\n      this._getHandlerMatchingConstraints = getHandlerMatchingConstraintsOnFirstUse',
      ],
    ],
    appended: `
function createParamsObjectOnFirstUse (param0, param1, param2, param3, extraParams) {
  this._createParamsObject = HandlerStorage.prototype._compileCreateParamsObject(this.params)
  return this._createParamsObject(param0, param1, param2, param3, extraParams)
}

// Compiled with the handlers the storage holds when first asked (each addition sets this again).
function getHandlerMatchingConstraintsOnFirstUse (derivedConstraints) {
  this._compileGetHandlerMatchingConstraints(this._constrainer)
  return this._getHandlerMatchingConstraints(derivedConstraints)
}
`,
    calls: [
      [/\._createParamsObject\(/g, []],
      [/\._getHandlerMatchingConstraints\(/g, ['this._getHandlerMatchingConstraints(derivedConstraints)']],
    ],
  },
]

/** `code` of `path` (a find-my-way file) with its generated code compiled on first use. */
export function lazyRouterCodeIn(code, path) {
  const spec = FILES.find(({ file }) => file.test(path))
  if (!spec) return code
  const out = replaceEachOnce(code, path, spec.edits, 'find-my-way')
  for (const [pattern, known] of spec.calls) {
    const found = out.match(pattern)?.length ?? 0
    if (found !== known.length || !known.every((call) => out.includes(call)))
      throw new Error(
        `${path}: ${pattern.source} is used ${found} times; known: ${known.join(', ') || 'none'}`,
      )
  }
  return `${out}\n${spec.appended}`
}

export function lazyRouterCode() {
  return {
    name: 'lazy-router-code',
    setup(build) {
      const filter = /[\\/]find-my-way[\\/]lib[\\/](node|handler-storage)\.js$/
      build.onLoad({ filter }, async ({ path }) => {
        const { readFile } = await import('node:fs/promises')
        return { contents: lazyRouterCodeIn(await readFile(path, 'utf8'), path), loader: 'js' }
      })
    },
  }
}
