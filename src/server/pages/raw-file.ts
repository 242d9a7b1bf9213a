import type { FastifyReply } from 'fastify'
import { rawContentHeaders } from '../domain/blob-content.js'
import type { Services } from '../services/index.js'
import type { PageContext } from './layout.js'
import { isHidden, notFoundPage, sendPage } from './respond.js'

/**
 * `/<full_path>/-/raw/<ref>/<path>`: a file's bytes (`Projects::RawController#show`,
 * `WorkhorseHelper#send_git_blob`) with Workhorse's safe content type and disposition (text as
 * `text/plain`, SVG and unknown types downloaded), `X-Content-Type-Options: nosniff` and a
 * sandboxing CSP so that nothing in a repository runs on this origin. GitLab's 404 page for what
 * the visitor may not read, a ref that names nothing or a path that is no file.
 */
export function sendRawFile(
  reply: FastifyReply,
  ctx: PageContext,
  services: Services,
  fullPath: string,
  rest: string,
): FastifyReply {
  const { actor } = ctx.visitor
  let read
  try {
    const at = services.repository.browse.locate(actor, fullPath, rest)
    read = services.repository.files.read(actor, at.project.full_path, at.path, at.sha)
  } catch (err) {
    if (isHidden(err)) return sendPage(reply, 404, notFoundPage(ctx))
    throw err
  }
  const { type, disposition } = rawContentHeaders(read.content, read.meta.file_name)
  return reply
    .code(200)
    .header('content-type', type)
    .header('content-disposition', disposition)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', 'private, no-store')
    .send(read.content)
}
