import { cpSync, existsSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { workDir, type WorkDir } from '../store/work-dirs.js'

/**
 * The files of named snapshots (store/named-snapshots.ts keeps the tables): each work dir whose
 * files rows point to (metric images, export archives) is copied to `snapshots/<name>/<key>`, under
 * the data dir, or a temporary folder removed at close for a `:memory:` store. Names are checked by
 * the store first (`[A-Za-z0-9_.-]`, never a path).
 */
export function snapshotFiles(data: string) {
  const dirs = new Map<string, WorkDir>()
  // Made on first use: most servers never save a snapshot.
  let root: WorkDir | undefined
  const at = (name: string) => join((root ??= workDir(data, ['snapshots'], 'snapshots')).dir, name)
  const emptied = (dir: string) => {
    for (const entry of readdirSync(dir)) rmSync(join(dir, entry), { recursive: true, force: true })
  }
  return {
    /** A work dir to keep in every snapshot, under `key`. */
    add: (key: string, dir: WorkDir) => void dirs.set(key, dir),
    save(name: string) {
      const to = at(name)
      rmSync(to, { recursive: true, force: true })
      for (const [key, { dir }] of dirs) cpSync(dir, join(to, key), { recursive: true })
    },
    /** Puts every work dir back as snapshot `name` has it (empty when it kept none: an older snapshot). */
    restore(name: string) {
      for (const [key, work] of dirs) {
        emptied(work.dir)
        const from = join(at(name), key)
        if (existsSync(from)) {
          work.filled()
          cpSync(from, work.dir, { recursive: true })
        }
      }
    },
    remove: (name: string) => rmSync(at(name), { recursive: true, force: true }),
    close: () => root?.removeIfTemporary(),
  }
}
export type SnapshotFiles = ReturnType<typeof snapshotFiles>
