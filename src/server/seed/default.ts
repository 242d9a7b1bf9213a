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
