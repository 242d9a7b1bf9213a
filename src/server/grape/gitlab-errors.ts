/**
 * An error that renders as GitLab renders it: a status and the exact body of GitLab's
 * helpers (`lib/api/helpers.rb`, `lib/api/api.rb`). Services throw these; one handler sends them.
 */
export class GitLabError extends Error {
  constructor(
    readonly status: number,
    /** A string is sent as `text/plain` (Rack middleware answers), an object as JSON. */
    readonly body:
      | { message: unknown }
      | { error: string }
      | { error: string; error_description: string; scope: string }
      | { error: string[] }
      | string
      | null,
    readonly headers: Record<string, string> = {},
  ) {
    super(
      typeof body === 'object' && body && 'message' in body ? JSON.stringify(body.message) : String(status),
    )
  }
}

/** `404 <Resource> Not Found`, or `404 Not Found` without a resource (`not_found!`). */
export const notFound = (resource?: string) =>
  new GitLabError(404, { message: resource ? `404 ${resource} Not Found` : '404 Not Found' })
/** `404 Not found`, lower-case f: what ActiveRecord::RecordNotFound renders (`lib/api/api.rb`). */
export const recordNotFound = () => new GitLabError(404, { message: '404 Not found' })
export const unauthorized = (reason?: string) =>
  new GitLabError(401, { message: reason ? `401 Unauthorized - ${reason}` : '401 Unauthorized' })
export const forbidden = (reason?: string) =>
  new GitLabError(403, { message: reason ? `403 Forbidden - ${reason}` : '403 Forbidden' })
export const badRequest = (reason?: string) =>
  new GitLabError(400, { message: reason ? `400 Bad request - ${reason}` : '400 Bad request' })
/** Grape parameter errors use the `error` key: `{"error":"title is missing"}`. */
export const paramError = (text: string) => new GitLabError(400, { error: text })
/** Model validation: `{"message":{"title":["can't be blank"]}}`. */
export const validationError = (fields: Record<string, string[]>, status = 400) =>
  new GitLabError(status, { message: fields })
/** Grape's `error!` of a list: `{"error":["..."]}` (e.g. a model's `limit_reached` errors, lib/api/projects.rb). */
export const errorList = (status: number, texts: string[]) => new GitLabError(status, { error: texts })
/** A bare message with a status, e.g. 409 `{"message":"Duplicated issue"}`. */
export const messageError = (status: number, message: unknown) => new GitLabError(status, { message })
export const notModified = () => new GitLabError(304, null)
/** Rack middleware's plain-text refusal (lib/gitlab/middleware/handle_malformed_strings.rb). */
export const malformedRequest = () => new GitLabError(400, 'Bad Request')

/** Grape's words for a body that is not the JSON its content type promises. */
export const invalidJsonBody = () =>
  paramError(
    '\nProblem:\n  message body does not match declared format\nResolution:\n  when specifying application/json as content-type, you must pass valid application/json content',
  )

/**
 * `Gitlab::Middleware::JsonValidation`'s answer to a JSON body over its limits, given before
 * any route or authentication (`Gitlab::Json::StreamValidator.user_facing_error_message`).
 */
export const jsonLimitError = (limitExceeded: string) => paramError(limitExceeded)
