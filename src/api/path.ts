/**
 * A path template that encodes every interpolated value with encodeURIComponent, so that a full
 * path is one segment: path`/projects/${'acme/widgets'}/issues/${3}` ->
 * `/projects/acme%2Fwidgets/issues/3`. Numbers go in as they are.
 *
 * Throws TypeError for an empty value and for `.` or `..`, which a URL parser would collapse into
 * another path (`/projects/../users`), whatever the encoding.
 */
export function path(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  let out = strings[0] ?? ''
  values.forEach((value, i) => {
    const text = String(value)
    if (text === '' || text === '.' || text === '..')
      throw new TypeError(`path segment ${i + 1} must not be ${text === '' ? 'empty' : `'${text}'`}`)
    out += encodeURIComponent(text) + (strings[i + 1] ?? '')
  })
  return out
}
