/**
 * A path template that URL-encodes every interpolated value, so that a project's full path
 * becomes one segment: path`/projects/${'acme/widgets'}/issues` -> `/projects/acme%2Fwidgets/issues`.
 */
export function path(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  return strings.reduce(
    (out, part, i) => out + part + (i < values.length ? encodeURIComponent(String(values[i])) : ''),
    '',
  )
}
