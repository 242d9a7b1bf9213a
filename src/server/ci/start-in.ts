/*
 * `start_in` of delayed jobs (`Entry::Job` `validates :start_in, duration: { limit: '1 week' }`): a
 * ChronicDuration text such as `30 minutes`, `1 day`, `2h 30m` or bare seconds, at most a week.
 */

const UNITS: [RegExp, number][] = [
  [/^(s|secs?|seconds?)$/, 1],
  [/^(m|mins?|minutes?)$/, 60],
  [/^(h|hrs?|hours?)$/, 3600],
  [/^(d|days?)$/, 86_400],
  [/^(w|wks?|weeks?)$/, 604_800],
]
const WEEK = 604_800

/** Seconds of a `start_in`, or `undefined` when it is no duration or longer than a week. */
export function startInSeconds(value: unknown): number | undefined {
  if (typeof value === 'number') return value >= 0 && value <= WEEK ? value : undefined
  if (typeof value !== 'string') return undefined
  const text = value
    .trim()
    .toLowerCase()
    .replace(/\band\b|,/g, ' ')
  if (/^\d+$/.test(text)) return startInSeconds(Number(text))
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)\s*([a-z]+)/g)]
  if (
    parts.length === 0 ||
    parts
      .map((p) => p[0])
      .join('')
      .replace(/\s+/g, '') !== text.replace(/\s+/g, '')
  )
    return undefined
  let total = 0
  for (const [, n, unit] of parts) {
    const found = UNITS.find(([re]) => re.test(unit ?? ''))
    if (!found) return undefined
    total += Number(n) * found[1]
  }
  return total <= WEEK ? Math.round(total) : undefined
}
