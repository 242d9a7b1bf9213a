import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { GitLabError, invalidJsonBody } from '../grape/gitlab-errors.js'

/**
 * The one error handler. Anything that is not a GitLabError is a bug: logged, and answered as
 * GitLab answers an unhandled exception, without a stack trace.
 */
export function handleError(err: FastifyError | GitLabError, req: FastifyRequest, reply: FastifyReply) {
  if (err instanceof GitLabError) {
    reply.code(err.status).headers(err.headers)
    if (err.body === null) return reply.send()
    if (typeof err.body === 'string') return reply.type('text/plain').send(err.body)
    return reply.type('application/json').send(err.body)
  }
  // Fastify's own refusals of the raw request: size, media type, a body that does not parse.
  const status = err.statusCode ?? 500
  const json = (code: number, body: unknown) => reply.code(code).type('application/json').send(body)
  if (status === 413) return json(413, { message: '413 Request Entity Too Large' })
  if (status === 415)
    return json(415, {
      error: `The provided content-type '${req.headers['content-type'] ?? ''}' is not supported.`,
    })
  if (status >= 400 && status < 500) return json(400, invalidJsonBody().body)
  req.log.error({ err }, 'unhandled error')
  return json(500, { message: '500 Internal Server Error' })
}
