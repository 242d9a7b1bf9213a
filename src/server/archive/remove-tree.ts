import { readdir, rmdir, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { collectYoungGarbage } from './garbage.js'

/** Entries removed at once (their removals run on libuv's thread pool). */
const AT_ONCE = 64
/** Entries of one folder between two young-generation collections. */
const COLLECT_EVERY = 32 * AT_ONCE

const code = (err: unknown) => (err as { code?: string }).code

function ignoreMissing(err: unknown): void {
  if (code(err) !== 'ENOENT') throw err
}

/**
 * Removes `path` (a folder an archive was extracted into, or a file) and everything below it,
 * AT_ONCE entries at a time; nothing there is an error. `fs.promises.rm` with `recursive` starts
 * every removal of a folder at once: the 100,000 entries of an entry flood took the server 290 MB
 * higher and stalled it for 2.5 s. (Each folder is listed whole: the entry limit bounds the list.
 * Reading it with `opendir` instead made garbage enough per folder that 50,000 folders took the
 * heap 150 MB higher.)
 */
export async function removeTree(path: string): Promise<void> {
  let entries
  try {
    entries = await readdir(path, { withFileTypes: true })
  } catch (err) {
    if (code(err) === 'ENOTDIR') return unlink(path).catch(ignoreMissing)
    return ignoreMissing(err)
  }
  for (let i = 0; i < entries.length; i += AT_ONCE) {
    // As extraction does (safe-extract.ts): each removal's promises are garbage a grown young generation keeps.
    if (i > 0 && i % COLLECT_EVERY === 0) collectYoungGarbage()
    await Promise.all(
      entries.slice(i, i + AT_ONCE).map((e) => {
        const child = join(path, e.name)
        return e.isDirectory() ? removeTree(child) : unlink(child).catch(ignoreMissing)
      }),
    )
  }
  await rmdir(path).catch(ignoreMissing)
}
