/** A key path into the seed: object keys and list indexes, `['projects', 0, 'issues', 2, 'state']`. */
export type SeedPath = (string | number)[]

/** One thing wrong with a seed, before it is placed in the file. */
export interface SeedProblem {
  path: SeedPath
  message: string
  /** The seed names a record the server holds already (409 on `POST /-/emulator/seed`). */
  conflict?: true
}

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/

/**
 * `projects[0].issues[2].state`; keys that are not plain words are quoted, `members["j.doe"]`.
 * The empty path (the whole file) formats as `''`.
 */
export function formatPath(path: SeedPath): string {
  let text = ''
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`
    else if (!PLAIN_KEY.test(segment)) text += `[${JSON.stringify(segment)}]`
    else text += text === '' ? segment : `.${segment}`
  }
  return text
}

/**
 * A seed that cannot be used. The message is one line: `<file>: <where>: <problem>`, where `where`
 * is a key path (`projects[0].issues[2].state`) or, for YAML syntax, `line 3, column 5`.
 */
export class SeedError extends Error {
  override name = 'SeedError'

  constructor(
    readonly file: string,
    readonly where: string,
    readonly problem: string,
    /** The seed names a record the server holds already. */
    readonly conflict = false,
  ) {
    super(where === '' ? `${file}: ${problem}` : `${file}: ${where}: ${problem}`)
  }
}
