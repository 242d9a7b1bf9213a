import type { Db } from './db.js'

/** `emulator_meta`: the store's own settings by key (the seed it was first given, say). */
export function metaTable(db: Db) {
  const get = db.prepare('SELECT value FROM emulator_meta WHERE key = ?').pluck()
  const set = db.prepare('INSERT OR REPLACE INTO emulator_meta (key, value) VALUES (?, ?)')
  const remove = db.prepare('DELETE FROM emulator_meta WHERE key = ?')
  return {
    get: (key: string) => get.get(key) as string | undefined,
    set: (key: string, value: string) => void set.run(key, value),
    /** One key as a slot: read it, write it, `undefined` removes it. */
    entry: (key: string) => ({
      get: () => get.get(key) as string | undefined,
      set: (value: string | undefined) => void (value === undefined ? remove.run(key) : set.run(key, value)),
    }),
  }
}
