// For the bundling scripts: the modules a bundle still imports at run time, other than Node's
// built-ins and what `allowed` accepts (esbuild's metafile records each output's imports).
import { builtinModules } from 'node:module'

const builtin = (path) => path.startsWith('node:') || builtinModules.includes(path.split('/')[0])

/** The distinct external imports of `metafile`'s outputs that are neither built-ins nor `allowed`. */
export function importsOutside(metafile, allowed = () => false) {
  const outside = Object.values(metafile.outputs)
    .flatMap((output) => output.imports)
    .filter((i) => i.external && !builtin(i.path) && !allowed(i.path))
    .map((i) => i.path)
  return [...new Set(outside)]
}
