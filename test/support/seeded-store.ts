import { applySeed } from '../../src/server/services/seed.js'
import { openStore, type Store } from '../../src/server/store/index.js'

/** The fixed time the store is seeded at. */
const seedClock = { now: () => new Date('2026-01-01T00:00:00Z') }

/**
 * A store in memory with one administrator (`root`) and one private project, `root/app`, holding
 * issues of these titles by root (iids 1, 2, ... in this order): for tests of the caches over the
 * store, without a server. The caller closes it.
 */
export function storeWithIssues(titles: string[]): Store {
  const store = openStore(':memory:')
  applySeed(
    store,
    {
      users: [
        { username: 'root', name: 'Root', email: 'root@example.com', admin: true, token: 'glpat-root' },
      ],
      projects: [
        {
          path: 'root/app',
          name: 'App',
          visibility: 'private',
          issues: titles.map((title) => ({ title, author: 'root' })),
        },
      ],
    },
    seedClock,
  )
  return store
}
