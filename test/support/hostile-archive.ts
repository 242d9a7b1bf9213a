import { createWriteStream } from 'node:fs'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { createGzip } from 'node:zlib'
import tar from 'tar-stream'

/*
 * Hostile export archives built on the fly as real gzip'd tar streams (never committed, never held
 * inflated in memory): the suites that import them (test/reliability/hostile-archives.test.ts,
 * test/reliability/import-memory.test.ts) share these builders.
 */

/** What the generators write to: a tar entry (a streamx Writable). */
export interface Out {
  write(chunk: Buffer | string): boolean
  once(event: 'drain', listener: () => void): unknown
}
/** Writes `chunk` to `out`, waiting for 'drain' when asked to. */
export async function write(out: Out, chunk: Buffer | string) {
  if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', resolve))
}

let n = 0
/**
 * Streams a tar.gz to a new file in `dir`: `fill` adds entries to the pack while it is being
 * gzipped to disk. Nothing but the compressed output and one chunk at a time is ever in memory.
 */
export async function archive(
  dir: string,
  fill: (pack: tar.Pack) => Promise<void>,
  level = 1,
): Promise<string> {
  const file = join(dir, `hostile-${process.pid}-${++n}.tar.gz`)
  const pack = tar.pack()
  const done = pipeline(pack, createGzip({ level }), createWriteStream(file))
  await fill(pack)
  pack.finalize()
  await done
  return file
}
/** A small entry with a body. */
export function small(pack: tar.Pack, name: string, body: string) {
  return new Promise<void>((resolve, reject) =>
    pack.entry({ name, type: 'file' }, body, (err) => (err ? reject(err) : resolve())),
  )
}
/** An entry of `size` bytes written by `produce` chunk by chunk. */
export async function streamed(
  pack: tar.Pack,
  name: string,
  size: number,
  produce: (out: Out) => Promise<void>,
) {
  const entry = pack.entry({ name, type: 'file', size })
  const finished = new Promise<void>((resolve, reject) => {
    entry.on('finish', () => resolve())
    entry.on('error', reject)
  })
  await produce(entry)
  ;(entry as unknown as { end(): void }).end()
  await finished
}
/** `VERSION` and an empty `tree/project.json`: what every importable archive starts with. */
export const base = async (pack: tar.Pack) => {
  await small(pack, './VERSION', '0.2.4')
  await small(pack, './tree/project.json', '{}')
}
/**
 * An entry of `size` bytes: `head`, then `fill` repeated, then `tail` (no newline unless given).
 * Chunks hold whole copies of `fill`, so that one of several characters is never cut between them.
 */
export function repeated(pack: tar.Pack, name: string, size: number, fill: string, head = '', tail = '') {
  const chunk = Buffer.alloc(1024 * 1024 - ((1024 * 1024) % Buffer.byteLength(fill)), fill)
  return streamed(pack, name, size, async (out) => {
    await write(out, head)
    let left = size - Buffer.byteLength(head) - Buffer.byteLength(tail)
    while (left > 0) {
      const part = chunk.subarray(0, Math.min(left, chunk.length))
      await write(out, part)
      left -= part.length
    }
    await write(out, tail)
  })
}
