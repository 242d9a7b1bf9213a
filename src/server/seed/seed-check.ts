import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler'
import { Seed } from '../../schema/seed.js'

let compiled: TypeCheck<typeof Seed> | undefined

/** TypeBox's checker of src/schema/seed.ts (`Check`, and `Errors` to name problems), compiled on first use. */
export const seedChecker = () => (compiled ??= TypeCompiler.Compile(Seed))

/*
 * Start-up time: TypeBox compiles its checker with `new Function` (4-8 ms of `serve --seed`'s CPU),
 * code that V8's code cache of serve cannot hold. In the CLI bundle, scripts/seed-check.mjs puts
 * the same check here, compiled from the same schema at build time; elsewhere it is undefined.
 */
const prebuilt: ((value: unknown) => boolean) | undefined = undefined

/** Whether `value` has the shape of a seed (src/schema/seed.ts). */
export function isSeed(value: unknown): value is Seed {
  return prebuilt ? prebuilt(value) : seedChecker().Check(value)
}
