import { gunzipSync } from 'node:zlib'
import tar from 'tar-stream'

/**
 * The members of a .tar.gz, by name, in archive order, read with tar-stream (test-sized archives
 * only): `body` as UTF-8 text, `bytes` as they are (for binary members such as `project.bundle`).
 */
export async function tarGzMembers(
  archive: Buffer,
): Promise<Map<string, { type: string; body: string; bytes: Buffer }>> {
  const out = new Map<string, { type: string; body: string; bytes: Buffer }>()
  const extract = tar.extract()
  extract.on('entry', (header, stream, next) => {
    const chunks: Buffer[] = []
    stream.on('data', (c: unknown) => void chunks.push(c as Buffer))
    stream.on('end', () => {
      const bytes = Buffer.concat(chunks)
      out.set(header.name, { type: header.type ?? 'file', body: bytes.toString('utf8'), bytes })
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
