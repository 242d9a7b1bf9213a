/**
 * A job's `coverage:` (`Entry::Coverage`) and what its trace reports through it
 * (`Gitlab::Ci::Trace::Stream#extract_coverage`).
 */

/** `Gitlab::UntrustedRegexp::RubySyntax`: `/source/` with Ruby's flags after it. */
const RUBY_SYNTAX = /^\/(.*)\/([ismU]*)$/s

/**
 * Checks `coverage:` and returns what GitLab keeps of it (the text between the first and the last
 * character: `Entry::Coverage#value`); throws GitLab's error for anything that is not a `/regexp/`.
 */
export function coverageRegex(value: unknown, where: string): string {
  const written = typeof value === 'string' ? RUBY_SYNTAX.exec(value) : null
  if (!written || !compiles(written[1] as string))
    throw new Error(`${where}:coverage config must be a regular expression with re2 syntax`)
  return (value as string).slice(1, -1)
}

/**
 * The coverage a trace reports: from its last line backwards, the first line the expression matches
 * gives the last match (its last group, when it has groups), and the first number in that is the
 * coverage. Null when no line gives one, or when the expression does not compile (GitLab's rescue).
 */
export function extractCoverage(trace: string, source: string): number | null {
  let expression: RegExp
  try {
    expression = new RegExp(source, 'g')
  } catch {
    return null
  }
  const lines = trace.split('\n')
  for (let i = lines.length - 1; i >= 0; i--) {
    const matches = [...(lines[i] as string).matchAll(expression)]
    const last = matches.at(-1)
    if (!last) continue
    // Ruby's `scan(...).flatten.last`: the last group of the last match, or the match itself.
    const text = last.length > 1 ? (last.at(-1) ?? '') : last[0]
    const number = /\d+(\.\d+)?/.exec(text)
    if (number) return Number(number[0])
  }
  return null
}

function compiles(source: string): boolean {
  try {
    new RegExp(source)
    return true
  } catch {
    return false
  }
}
