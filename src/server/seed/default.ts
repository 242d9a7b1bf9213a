import { randomBytes } from 'node:crypto'
import type { Seed } from '../../schema/seed.js'

/** The token of `root` in the default seed; `gitlab-actions serve` prints it at start. */
export const DEFAULT_ROOT_TOKEN = 'glpat-emulator-root-token'

/** The token of demo/app's `deploy` trigger in the default seed (fixed, so a recipe can use it); printed at start too. */
export const DEFAULT_TRIGGER_TOKEN = 'glptt-c89bfd2fea7cfbf9d2ff80b4fd8387b054716242'

/**
 * What `gitlab-actions serve` and `startServer` load when given no seed: an administrator to sign
 * in with, a developer, and a small group, project and issues to try the API on. A module rather
 * than a file, so that a one-file bundle of the server carries it.
 */
export const defaultSeed: Seed = {
  users: [
    {
      username: 'root',
      name: 'Administrator',
      email: 'root@example.com',
      admin: true,
      token: DEFAULT_ROOT_TOKEN,
    },
    { username: 'alice', name: 'Alice Anders', token: 'glpat-emulator-alice-token' },
  ],
  groups: [{ path: 'demo', name: 'Demo', visibility: 'internal', members: { alice: 'developer' } }],
  projects: [
    {
      path: 'demo/app',
      name: 'App',
      description: 'A small project to try the API on',
      visibility: 'internal',
      refs: ['main', 'develop'],
      labels: [
        { name: 'bug', color: '#d9534f' },
        { name: 'feature', color: '#5cb85c' },
      ],
      milestones: [{ title: 'v1.0' }],
      issues: [
        { title: 'Crash on start', author: 'alice', labels: ['bug'], milestone: 'v1.0' },
        { title: 'Add a dark mode', author: 'alice', labels: ['feature'], assignees: ['alice'] },
        { title: 'Write the README', author: 'root', state: 'closed' },
      ],
      triggers: [{ description: 'deploy', owner: 'root', token: DEFAULT_TRIGGER_TOKEN }],
    },
  ],
}

/** Loopback addresses and names: only a server bound to one of them keeps the well-known tokens. */
export const isLoopbackHost = (host: string) => /^(localhost|::1|\[::1\]|127(\.\d{1,3}){3})$/i.test(host)

/**
 * The built-in seed for a server listening on `host`. On a loopback address, `defaultSeed` with its
 * well-known tokens (only the developer's own programs reach it). Anywhere else every machine, or
 * page, that reaches it would know the administrator's token: root, alice and the trigger get
 * random ones; `startServer` hands out root's as `token`, and `serve` prints it.
 */
export function builtInSeed(host: string): Seed {
  if (isLoopbackHost(host)) return defaultSeed
  const random = () => `glpat-${randomBytes(15).toString('base64url')}`
  return {
    ...defaultSeed,
    users: defaultSeed.users?.map((user) => ({ ...user, token: random() })),
    // A generated trigger token is derived from the time of seeding: random here too.
    projects: defaultSeed.projects?.map((project) => ({
      ...project,
      triggers: project.triggers?.map((t) => ({ ...t, token: `glptt-${randomBytes(20).toString('hex')}` })),
    })),
  }
}

/**
 * What `seed: 'none'` (`serve --seed none`) loads: a fresh GitLab's administrator `root` and
 * nothing else, so that a suite builds its world through the API. Its token as the built-in
 * seed's: the well-known one on loopback, a random one anywhere else.
 */
export function freshInstanceSeed(host: string): Seed {
  return { users: builtInSeed(host).users?.filter((user) => user.username === 'root') }
}
