import { gunzipSync } from 'node:zlib'
import tar from 'tar-stream'

/** The members of a .tar.gz, by name, in archive order, read with tar-stream (test-sized archives only). */
export async function tarGzMembers(archive: Buffer): Promise<Map<string, { type: string; body: string }>> {
  const out = new Map<string, { type: string; body: string }>()
  const extract = tar.extract()
  extract.on('entry', (header, stream, next) => {
    const chunks: Buffer[] = []
    stream.on('data', (c: unknown) => void chunks.push(c as Buffer))
    stream.on('end', () => {
      out.set(header.name, { type: header.type ?? 'file', body: Buffer.concat(chunks).toString('utf8') })
      next()
    })
  })
  const done = new Promise((resolve, reject) =>
    extract.on('finish', () => resolve(undefined)).on('error', reject),
  )
  extract.end(gunzipSync(archive))
  await done
  return out
}
