// An esbuild plugin for serve.cjs and the one-file server: checks that bundled libraries make at
// every start, answered without loading the library that checks, where the answer is known.
// - Fastify checks each plugin's `fastify` version range against its own version
//   (lib/plugin-utils.js) with semver: 47 modules, some 120 regular expressions built as it loads,
//   a dozen compiled for the two ranges a start meets (@fastify/formbody's and @fastify/multipart's
//   `5.x`). A range `N.x` against a release `A.B.C` is `A === N`, semver's answer; any other range
//   or version, and the rest of what plugin-utils asks, goes to the real semver, loaded then.
// - find-my-way checks its own regular expressions with safe-regex2 (and its tokenizer, ret) as it
//   loads. Those are checked here, at bundle time, with the real safe-regex2; at run time the ones
//   it passed pass, and any other (a route's regex parameter) goes to the real one.
// Together about 4% of the instructions of an empty start to its first answer (BENCHMARKS.md, stop 44).
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'

/** semver for plugin-utils: `satisfies` answers `N.x` ranges itself; the rest loads the real one. */
export const SEMVER_STAND_IN = `const real = () => require("semver");
// Releases only, with parts that are safe integers: semver's answer is then the majors' equality
// (N.x is >=N.0.0 <N+1.0.0-0, with or without includePrerelease).
const RELEASE = /^(0|[1-9]\\d{0,14})\\.(0|[1-9]\\d{0,14})\\.(0|[1-9]\\d{0,14})$/;
const MAJOR_X = /^(0|[1-9]\\d{0,14})\\.x$/;
module.exports = {
  satisfies(version, range, options) {
    const release = typeof version === "string" ? RELEASE.exec(version) : null;
    const major = typeof range === "string" ? MAJOR_X.exec(range) : null;
    if (release && major) return release[1] === major[1];
    return real().satisfies(version, range, options);
  },
  gt: (...args) => real().gt(...args),
  coerce: (...args) => real().coerce(...args),
};
`

/** The regular expression literals `code` names `const X_REGEXP = /.../`, as `source/flags`. */
function regexpConstants(code) {
  return [...code.matchAll(/^const \w+_REGEXP = (\/.+\/[dgimsuvy]*)$/gm)].map((m) => {
    const re = new Function(`return ${m[1]}`)()
    return { re, key: `${re.source}/${re.flags}` }
  })
}

/** safe-regex2 for `requirer`, with the answers for its regexp constants that the real one passed. */
function safeRegexStandIn(requirer, code) {
  const real = createRequire(requirer)('safe-regex2')
  const passed = regexpConstants(code).filter(({ re }) => real(re) === true)
  if (passed.length === 0) throw new Error(`load-time-checks: no regexp constant found in ${requirer}`)
  return (
    `const real = () => require("safe-regex2");\n` +
    `const SAFE = new Set(${JSON.stringify(passed.map((p) => p.key))});\n` +
    'module.exports = function isRegexSafe(re, opts) {\n' +
    '  if (opts === undefined && re instanceof RegExp && SAFE.has(`${re.source}/${re.flags}`)) return true;\n' +
    '  return real()(re, opts);\n' +
    '};\n'
  )
}

/** Requirers (as bundlers name them), the package they get a stand-in for, and what they may read of it. */
const REQUIRERS = [
  {
    file: /node_modules\/fastify\/lib\/plugin-utils\.js$/,
    pkg: 'semver',
    reads: (code) => [...new Set([...code.matchAll(/\bsemver\.(\w+)/g)].map((m) => m[1]))],
    known: ['satisfies', 'gt', 'coerce'],
    standIn: () => SEMVER_STAND_IN,
  },
  {
    file: /node_modules\/find-my-way\/index\.js$/,
    pkg: 'safe-regex2',
    reads: (code) => (/\bisRegexSafe\s*\./.test(code) ? ['a property'] : []),
    known: [],
    standIn: safeRegexStandIn,
  },
]

export function loadTimeChecks() {
  return {
    name: 'load-time-checks',
    setup(build) {
      build.onResolve({ filter: /^(semver|safe-regex2)$/ }, (args) => {
        const importer = args.importer.replaceAll('\\', '/')
        const at = REQUIRERS.findIndex((r) => r.file.test(importer) && r.pkg === args.path)
        if (args.namespace === 'load-time-check' || args.kind !== 'require-call' || at < 0) return undefined
        return { path: `${args.path}#${at}`, namespace: 'load-time-check', pluginData: args.importer }
      })
      build.onLoad({ filter: /.*/, namespace: 'load-time-check' }, (args) => {
        const requirer = REQUIRERS[Number(args.path.slice(args.path.indexOf('#') + 1))]
        const code = readFileSync(args.pluginData, 'utf8')
        const unknown = requirer.reads(code).filter((name) => !requirer.known.includes(name))
        if (unknown.length > 0)
          throw new Error(
            `load-time-checks: ${args.pluginData} reads ${unknown.join(', ')} of ${requirer.pkg}`,
          )
        // The real package is resolved from the requirer's directory: the copy it would have got.
        return {
          contents: requirer.standIn(args.pluginData, code),
          loader: 'js',
          resolveDir: dirname(args.pluginData),
        }
      })
    },
  }
}
