import { createClient } from '../../src/api/client.js'
import { gitlabSide } from '../../src/sync/gitlab.js'
import { plan } from '../../src/sync/plan.js'
import { cannedServer, json, type Canned } from '../api/canned-server.js'
import { gl, options } from './fixtures.js'

/*
 * GitLab before 15.0 names an internal note only `confidential` (`internal` came in 15.0 and
 * `confidential` stayed as its alias): a canned answer in that older shape, since the reference
 * server answers as today's GitLab with both keys.
 */
const note = (id: number, body: string, flags: Record<string, boolean>) => ({
  id,
  type: null,
  body,
  attachment: null,
  author: { id: 2, username: 'alice', name: 'Alice', state: 'active' },
  created_at: '2022-01-01T00:00:00.000Z',
  updated_at: '2022-01-01T00:00:00.000Z',
  system: false,
  noteable_id: 1,
  noteable_type: 'Issue',
  resolvable: false,
  noteable_iid: 4,
  commands_changes: {},
  ...flags,
})

let canned: Canned
beforeEach(async () => {
  canned = await cannedServer((req, res) => {
    if (req.url?.startsWith('/api/v4/projects/acme%2Fwidgets/issues/4/notes'))
      return json(res, 200, [
        note(1, 'public', { confidential: false }),
        note(2, 'said only confidential (GitLab 14)', { confidential: true }),
        note(3, 'said only internal', { internal: true }),
        note(4, 'said both', { confidential: false, internal: true }),
      ])
    json(res, 404, { message: '404 Not Found' })
  })
})
afterEach(() => canned.close())

describe('the GitLab side', () => {
  it('a note that is confidential or internal (either flag, as GitLab before and after 15.0 says it) stays on GitLab', async () => {
    const client = createClient({
      baseUrl: canned.origin,
      token: 'glpat-old-gitlab',
      retry: { maxRetries: 0 },
    })
    try {
      const notes = await gitlabSide(client, 'acme/widgets').comments(4, 'https://gitlab.example.com/i/4')
      expect(notes.map((n) => [n.body, n.internal])).toEqual([
        ['public', false],
        ['said only confidential (GitLab 14)', true],
        ['said only internal', true],
        ['said both', true],
      ])
      const p = plan(
        [],
        [gl(4, { comment_count: 4, comments: notes })],
        options({ direction: 'gitlab-to-github' }),
      )
      expect(p.ops.flatMap((o) => (o.kind === 'comment' ? [o.from.comment] : []))).toEqual([1])
      expect(p.confidential).toEqual({ issues: 0, notes: 3 })
    } finally {
      await client.close()
    }
  })
})
