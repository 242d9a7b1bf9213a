// An ESLint rule for eslint.config.js: no import cycle, `import type` included (import-x/no-cycle
// skips type imports, so a circle with one type-only side goes unseen). Relative specifiers only,
// `.js` read as the `.ts` beside it, as tsc resolves them; the graph is read from disk once per run.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'

const SPECIFIER = /\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]|\bimport\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g
const imports = new Map()

function target(from, spec) {
  const path = resolve(dirname(from), spec)
  const ts = path.replace(/\.js$/, '.ts')
  return existsSync(ts) ? ts : existsSync(path) ? path : undefined
}

function importsOf(file) {
  let found = imports.get(file)
  if (!found) {
    found = new Set()
    const text = existsSync(file) ? readFileSync(file, 'utf8') : ''
    for (const m of text.matchAll(SPECIFIER)) {
      const to = target(file, m[1] ?? m[2])
      if (to) found.add(to)
    }
    imports.set(file, found)
  }
  return found
}

/** A path of imports from `start` back to `goal`, or undefined. */
function pathBack(start, goal) {
  const parents = new Map([[start, null]])
  const queue = [start]
  while (queue.length > 0) {
    const file = queue.shift()
    for (const next of importsOf(file)) {
      if (next === goal) {
        const path = [file]
        for (let p = parents.get(file); p; p = parents.get(p)) path.unshift(p)
        return path
      }
      if (!parents.has(next)) {
        parents.set(next, file)
        queue.push(next)
      }
    }
  }
  return undefined
}

export const noCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'no import cycle, type imports included' },
    messages: { cycle: 'import cycle (type imports count): {{cycle}}' },
    schema: [],
  },
  create(context) {
    const file = context.filename
    const check = (node) => {
      const spec = node.source?.value
      if (typeof spec !== 'string' || !spec.startsWith('.')) return
      const to = target(file, spec)
      const path = to && pathBack(to, file)
      if (path)
        context.report({
          node,
          messageId: 'cycle',
          data: { cycle: [file, ...path, file].map((f) => relative(context.cwd, f)).join(' -> ') },
        })
    }
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    }
  },
}
