/** What Ruby's `String#strip` removes: NUL, tab, line feed, vertical tab, form feed, carriage return, space. */
const RUBY_STRIP = /^[\0\t\n\v\f\r ]+|[\0\t\n\v\f\r ]+$/g

/**
 * GitLab's `CommaSeparatedToArray` on one string (`lib/api/validations/types/comma_separated_to_array.rb`):
 * Ruby's `split(',')`, which keeps empty fields but trailing ones, each field stripped. `,bug` is
 * `["", "bug"]`, `bug,` is `["bug"]`, `` and `,` are `[]`.
 */
export function commaItems(text: string): string[] {
  const fields = text.split(',')
  while (fields.length > 0 && fields.at(-1) === '') fields.pop()
  return fields.map((field) => field.replace(RUBY_STRIP, ''))
}
