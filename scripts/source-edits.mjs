// Bundle-time edits of a dependency's source (scripts/lazy-router-code.mjs, compact-fastify-routes.mjs):
// each text must be found exactly once, so a release of the package that changed shape fails the build
// instead of being bundled half edited.

/** `code` of `path` with each `[from, to]` of `edits` applied; throws naming `pkg` when one is not found once. */
export function replaceEachOnce(code, path, edits, pkg) {
  let out = code
  for (const [from, to] of edits) {
    if (out.split(from).length !== 2)
      throw new Error(`${path}: expected one \`${from.trim()}\` (did ${pkg} change?)`)
    out = out.replace(from, to)
  }
  return out
}
