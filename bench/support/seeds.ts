import type { Seed } from '../../src/schema/seed.js'

/** A project `bench/issues` with `count` issues: a third labelled bug, a fifth closed, varied authors. */
export function issuesSeed(count: number): Seed {
  const users = ['root', 'alice', 'bob', 'carol']
  return {
    users: users.map((username) => ({
      username,
      token: `glpat-${username}-token`,
      admin: username === 'root',
    })),
    groups: [{ path: 'bench', visibility: 'private', members: { alice: 'maintainer', bob: 'developer' } }],
    projects: [
      {
        path: 'bench/issues',
        labels: [{ name: 'bug' }, { name: 'feature' }, { name: 'docs' }],
        milestones: [{ title: 'v1.0' }],
        issues: Array.from({ length: count }, (_, n) => ({
          title: `Issue number ${n + 1}`,
          description: n % 7 === 0 ? '- [x] reproduce\n- [ ] fix' : `Description of issue ${n + 1}`,
          author: users[1 + (n % 3)] as string,
          assignees: n % 4 === 0 ? ['bob'] : [],
          labels: n % 3 === 0 ? ['bug'] : n % 3 === 1 ? ['feature', 'docs'] : [],
          milestone: n % 5 === 0 ? 'v1.0' : undefined,
          state: n % 5 === 4 ? ('closed' as const) : ('opened' as const),
          created_at: new Date(Date.UTC(2025, 0, 1) + n * 60_000).toISOString(),
        })),
      },
    ],
  } as Seed
}
