// An esbuild plugin for scripts/bundle-cli.mjs: the seed schema's TypeBox check, compiled at build
// time. TypeBox compiles its checkers with `new Function` at run time, which V8's code cache of
// `serve` cannot hold; src/server/seed/seed-check.ts leaves a `prebuilt` check undefined, and in
// the bundle it is TypeBox's code for build/schema/seed.js (tsc's output, built just before). The
// build fails if seed-check.js no longer has the line this replaces.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { TypeCompiler } from '@sinclair/typebox/compiler'

const UNSET = 'const prebuilt = undefined;'

/** TypeBox's check of `schema` as an expression: the function `TypeCompiler.Compile` would make. */
export function checkExpression(schema) {
  const code = TypeCompiler.Code(schema, [], { language: 'javascript' })
  // Compile evaluates this code as the body of a function of TypeBox's registry hooks; the seed's
  // schema uses none of them (no custom kinds or formats), and it must stay so to be built here.
  if (/\b(kind|format|hash)\(/.test(code))
    throw new Error('the seed schema needs TypeBox registries at run time')
  return `(function () {\n${code}\n})()`
}

export function seedCheck(root) {
  return {
    name: 'seed-check',
    setup(build) {
      build.onLoad({ filter: /[\\/]build[\\/]server[\\/]seed[\\/]seed-check\.js$/ }, async ({ path }) => {
        const text = await readFile(path, 'utf8')
        if (text.split(UNSET).length !== 2) throw new Error(`${path}: expected one \`${UNSET}\``)
        const { Seed } = await import(pathToFileURL(join(root, 'build/schema/seed.js')).href)
        return { contents: text.replace(UNSET, `const prebuilt = ${checkExpression(Seed)};`), loader: 'js' }
      })
    },
  }
}
