import { createReadStream, createWriteStream } from 'node:fs'
import { lstat, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { createGzip } from 'node:zlib'
import tar from 'tar-stream'

/** Regular files and directories under `dir`, depth first, names sorted, as `./a`, `./a/b`. */
async function* walk(
  dir: string,
  prefix = '.',
): AsyncGenerator<{ name: string; path: string; dir: boolean }> {
  const names = (await readdir(dir)).sort()
  for (const entry of names) {
    const path = join(dir, entry)
    const info = await lstat(path)
    const name = `${prefix}/${entry}`
    if (info.isDirectory()) {
      yield { name, path, dir: true }
      yield* walk(path, name)
    } else if (info.isFile()) yield { name, path, dir: false }
  }
}

/**
 * Packs `dir` into a gzip'd tar at `file` the way GitLab's `tar -czf <file> -C <dir> .` does
 * (reference export-format §1): a `./` entry first, members named `./...`, regular files and
 * directories only. Streams each file from disk; never holds an archive in memory. `mtime` is the
 * time written in the headers (the job's clock). Throws what the file system throws.
 */
export async function packDirectory(dir: string, file: string, mtime: Date): Promise<void> {
  const pack = tar.pack()
  const done = pipeline(pack, createGzip(), createWriteStream(file))
  const add = (header: Parameters<tar.Pack['entry']>[0], body?: NodeJS.ReadableStream) =>
    new Promise<void>((resolve, reject) => {
      const sink = pack.entry(header, (err) => (err ? reject(err) : resolve()))
      if (body) {
        body.on('error', reject)
        body.pipe(sink)
      }
    })
  try {
    await add({ name: './', type: 'directory', mode: 0o755, mtime })
    for await (const entry of walk(dir)) {
      if (entry.dir) await add({ name: `${entry.name}/`, type: 'directory', mode: 0o755, mtime })
      else {
        const { size } = await lstat(entry.path)
        await add({ name: entry.name, type: 'file', mode: 0o644, size, mtime }, createReadStream(entry.path))
      }
    }
    pack.finalize()
  } catch (err) {
    pack.destroy(err as Error)
  }
  await done
}
