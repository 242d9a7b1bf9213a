import type { FastifyReply } from 'fastify'
import { rawContentHeaders } from '../domain/blob-content.js'
import type { Services } from '../services/index.js'
import type { PageContext } from './layout.js'
import { isHidden, notFoundPage, sendPage } from './respond.js'

/**
 * `SendsBlob#cached_blob?`: a minute (`Blob::CACHE_TIME`) under a branch or tag, an hour
 * (`CACHE_TIME_IMMUTABLE`) under a commit SHA; `public` only for a project anyone may read.
 */
const cacheControl = (immutable: boolean, open: boolean) =>
  `max-age=${immutable ? 3600 : 60}, ${open ? 'public' : 'private'}, must-revalidate, stale-while-revalidate=60, stale-if-error=300, s-maxage=60`

/** Whether an `If-None-Match` header names this ETag (or `*`). */
const matches = (header: string | undefined, etag: string) =>
  header !== undefined && header.split(',').some((t) => [etag, `W/${etag}`, '*'].includes(t.trim()))

/**
 * `/<full_path>/-/raw/<ref>/<path>`: a file's bytes (`Projects::RawController#show`,
 * `WorkhorseHelper#send_git_blob`) with Workhorse's safe content type and disposition (text as
 * `text/plain`, SVG and unknown types downloaded), `X-Content-Type-Options: nosniff` and a
 * sandboxing CSP so that nothing in a repository runs on this origin; the blob's id as a strong ETag
 * (304 to a matching `If-None-Match`). GitLab's 404 page for what the visitor may not read, a ref
 * that names nothing or a path that is no file.
 */
export function sendRawFile(
  reply: FastifyReply,
  ctx: PageContext,
  services: Services,
  fullPath: string,
  rest: string,
): FastifyReply {
  const { actor } = ctx.visitor
  let read, visibility
  try {
    const at = services.repository.browse.locate(actor, fullPath, rest)
    visibility = at.project.visibility
    read = services.repository.files.read(actor, at.project.full_path, at.path, at.ref)
  } catch (err) {
    if (isHidden(err)) return sendPage(reply, 404, notFoundPage(ctx))
    throw err
  }
  // `RawController#show`: `?inline=false` asks for a download.
  const inline = (reply.request.query as Record<string, unknown>).inline !== 'false'
  const { type, disposition } = rawContentHeaders(
    read.content,
    read.meta.file_name,
    inline ? 'inline' : 'attachment',
  )
  const etag = `"${read.meta.blob_id}"`
  reply
    .header('x-content-type-options', 'nosniff')
    .header('etag', etag)
    .header('cache-control', cacheControl(read.meta.ref === read.meta.commit_id, visibility === 'public'))
  if (matches(reply.request.headers['if-none-match'], etag)) return reply.code(304).send()
  return reply
    .code(200)
    .header('content-type', type)
    .header('content-disposition', disposition)
    .header('content-security-policy', "default-src 'none'; sandbox")
    .send(read.content)
}
