const NOTE_MAX = 1024
/** `Ci::Runner` validates `maximum_timeout` at 10 minutes or more. */
const MIN_TIMEOUT = 600

/** ActiveSupport's `Array#to_sentence`. */
const toSentence = (items: string[]) =>
  items.length <= 2 ? items.join(' and ') : `${items.slice(0, -1).join(', ')}, and ${items.at(-1)}`

/**
 * `Ci::Runner`'s model validations (app/models/ci/runner.rb) that the API's parameters can break, as
 * `errors` pairs (attribute, message): `tags_list` when the runner may not pick untagged jobs and has no
 * tag, `maintenance_note` over 1024 characters, `maximum_timeout` under 10 minutes.
 */
export function runnerErrors(row: {
  run_untagged: boolean
  tags: string[]
  note?: string | null
  timeout?: number | null
}) {
  const errors: [string, string][] = []
  if (!row.run_untagged && row.tags.length === 0)
    errors.push(['tags_list', 'can not be empty when runner is not allowed to pick untagged jobs'])
  if (row.note && row.note.length > NOTE_MAX)
    errors.push(['maintenance_note', `is too long (maximum is ${NOTE_MAX} characters)`])
  if (row.timeout != null && row.timeout < MIN_TIMEOUT)
    errors.push(['maximum_timeout', 'needs to be at least 10 minutes'])
  return errors
}
/** The attributes as `errors.full_messages` names them. */
const HUMAN: Record<string, string> = {
  tags_list: 'Tags list',
  maintenance_note: 'Maintenance note',
  maximum_timeout: 'Maximum timeout',
}

/** The errors as `errors.full_messages.to_sentence` writes them (`POST /user/runners`' 400). */
export const errorSentence = (errors: [string, string][]) =>
  toSentence(errors.map(([attribute, message]) => `${HUMAN[attribute]} ${message}`))

/** The errors as `render_validation_error!` answers them: `{"message": {attribute: [messages]}}`. */
export function errorFields(errors: [string, string][]): Record<string, string[]> {
  const fields: Record<string, string[]> = {}
  for (const [attribute, message] of errors) (fields[attribute] ??= []).push(message)
  return fields
}
