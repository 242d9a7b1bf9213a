import { Type } from '@sinclair/typebox'
import type { FastifyReply } from 'fastify'
import {
  BlameQuery,
  BlameRange,
  FileCommitted,
  FileDelete,
  FileRefQuery,
  FileWrite,
  RawFileQuery,
  RepositoryFile,
} from '../../schema/index.js'
import type { RepositoryFileMeta } from '../../schema/repository.js'
import type { ApiContext } from './context.js'

const FilePath = Type.Object({ id: Type.String(), file_path: Type.String() })

/**
 * A header value Node can send: Rack writes a Ruby string's UTF-8 bytes as they are, Node refuses
 * characters past Latin-1 (and writes Latin-1 ones as UTF-8 or not depending on the body), so a
 * value that is not printable ASCII (a file named `résumé.md`) is percent-encoded (`encodeURI`): our
 * choice, where GitLab sends the raw bytes.
 */
const headerValue = (value: string) => (/^[\x20-\x7e]*$/.test(value) ? value : encodeURI(value))

/** `set_http_headers(blob_data)` (`lib/api/helpers/headers_helpers.rb`): `X-Gitlab-<Key-Dasherized>`. */
function fileHeaders(reply: FastifyReply, meta: RepositoryFileMeta): void {
  for (const [key, value] of Object.entries(meta)) {
    const name = key
      .split('_')
      .map((w) => w[0]!.toUpperCase() + w.slice(1))
      .join('-')
    reply.header(`X-Gitlab-${name}`, headerValue(String(value)))
  }
}

/**
 * `lib/api/files.rb`: a file at a ref (`GET`, and `HEAD` with the headers only), its raw bytes, its blame,
 * and create, update, delete as one commit each. The path is URL-encoded (`lib%2Fa.rb`).
 */
export function repositoryFileRoutes(api: ApiContext): void {
  const { route } = api
  const files = api.services.repository.files

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/repository/files/:file_path/raw',
      summary: 'Read the raw bytes of a file (ref: the default branch if not given)',
      pathParams: FilePath,
      input: RawFileQuery,
      response: { 200: Type.String({ description: 'the file' }) },
      jobToken: true,
    },
    (h) => {
      const { meta, content } = files.read(h.actor, h.path.id, h.path.file_path, h.params.ref, true)
      fileHeaders(h.reply, meta)
      const name = encodeURIComponent(meta.file_name)
      return h.reply
        .header('cache-control', 'no-cache')
        .header(
          'content-disposition',
          `inline; filename="${headerValue(meta.file_name.replace(/["\r\n]/g, ''))}"; filename*=UTF-8''${name}`,
        )
        .type('text/plain; charset=utf-8')
        .send(content)
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/repository/files/:file_path',
      summary: 'Read a file at a ref: metadata, Base64 content and X-Gitlab-* headers (HEAD: the headers)',
      pathParams: FilePath,
      input: FileRefQuery,
      response: { 200: RepositoryFile },
    },
    (h) => {
      const { meta, content } = files.read(h.actor, h.path.id, h.path.file_path, h.params.ref)
      fileHeaders(h.reply, meta)
      return { ...meta, content: content.toString('base64') }
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/repository/files/:file_path/blame',
      summary:
        'Blame a file at a ref: ranges of lines with the commit that wrote them (range[start], range[end])',
      pathParams: FilePath,
      input: BlameQuery,
      // GitLab's `head` blame route declares `ref` alone and answers the file's headers, blaming nothing.
      headInput: FileRefQuery,
      response: { 200: Type.Array(BlameRange) },
    },
    (h) => {
      if (h.head) {
        fileHeaders(h.reply, files.read(h.actor, h.path.id, h.path.file_path, h.params.ref).meta)
        return []
      }
      const { meta, ranges } = files.blame(h.actor, h.path.id, h.path.file_path, h.params)
      fileHeaders(h.reply, meta)
      return ranges
    },
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/repository/files/:file_path',
      summary: 'Create a file as a commit on a branch (Developer; a protected branch as it allows)',
      auth: 'required',
      pathParams: FilePath,
      input: FileWrite,
      response: { 201: FileCommitted },
    },
    (h) => h.reply.code(201).send(files.create(h.actor, h.path.id, h.path.file_path, h.params)),
  )

  route(
    {
      method: 'PUT',
      url: '/api/v4/projects/:id/repository/files/:file_path',
      summary: 'Update a file as a commit on a branch (last_commit_id: refused if the file changed since)',
      auth: 'required',
      pathParams: FilePath,
      input: FileWrite,
      response: { 200: FileCommitted },
    },
    (h) => files.update(h.actor, h.path.id, h.path.file_path, h.params),
  )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/projects/:id/repository/files/:file_path',
      summary: 'Delete a file as a commit on a branch',
      auth: 'required',
      in: 'body',
      pathParams: FilePath,
      input: FileDelete,
      response: { 204: Type.Null() },
    },
    (h) => {
      files.remove(h.actor, h.path.id, h.path.file_path, h.params)
      return h.reply.code(204).send()
    },
  )
}
