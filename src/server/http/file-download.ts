import { open } from 'node:fs/promises'
import type { FastifyReply } from 'fastify'
import { streamedBody } from './head-requests.js'

/**
 * Answers with the file as an attachment named `name` (`application/octet-stream`, its length),
 * streamed; `missing` is thrown when the file is gone. The file is opened before answering, so
 * that a new export removing it cannot break a download under way; the read stream closes the handle
 * when it ends or is destroyed (a client leaving midway).
 */
export async function sendDownload(
  reply: FastifyReply,
  file: string,
  name: string,
  missing: () => Error,
): Promise<FastifyReply> {
  const handle = await open(file).catch(() => {
    throw missing()
  })
  const { size } = await handle.stat().catch(async (err: unknown) => {
    await handle.close()
    throw err
  })
  return reply
    .header('content-type', 'application/octet-stream')
    .header(
      'content-disposition',
      `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    )
    .header('content-transfer-encoding', 'binary')
    .header('content-length', String(size))
    .send(streamedBody(reply.request, handle.createReadStream()))
}
