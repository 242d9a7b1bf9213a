import { plan } from '../../src/sync/plan.js'
import { formatMarker } from '../../src/sync/text.js'
import { applyInMemory, comment, gh, options } from './fixtures.js'

/** A GitHub issue with comments 1 and 2, mirrored to GitLab #1 by an earlier run. */
function mirrored() {
  const opts = options()
  const source = gh(1, { comment_count: 2, comments: [comment(1, 'one'), comment(2, 'two')] })
  const first = plan([source], [], opts)
  const { gitlab } = applyInMemory(first.ops, [source], [])
  return { opts, source, mirror: gitlab[0]! }
}

describe('comment markers', () => {
  it('a mirror records digests of its source and of itself', () => {
    const { mirror } = mirrored()
    expect(mirror.comments!.map((c) => c.body.split('\n').at(-1))).toEqual([
      expect.stringMatching(
        /^<!-- gitlab-actions:sync v=1 comment=github%3A1 src=[0-9a-f]{10} dst=[0-9a-f]{10} -->$/,
      ),
      expect.stringMatching(
        /^<!-- gitlab-actions:sync v=1 comment=github%3A2 src=[0-9a-f]{10} dst=[0-9a-f]{10} -->$/,
      ),
    ])
  })

  it('an edit and a deletion plan one rewrite and one delete; applied, the next plan is empty', () => {
    const { opts, source, mirror } = mirrored()
    const edited = { ...source, comment_count: 1, comments: [comment(1, 'one, edited')] }
    const p = plan([edited], [mirror], opts)
    expect(p.ops.map((o) => o.kind)).toEqual(['comment-edit', 'comment-delete', 'update'])
    const after = applyInMemory(p.ops, [edited], [mirror])
    expect(after.gitlab[0]!.comments!.map((c) => c.body.split('\n')[2])).toEqual(['one, edited'])
    expect(plan(after.github, after.gitlab, opts).ops).toEqual([])
  })

  it('mirrors written before the digests follow deletions only, and are not rewritten', () => {
    const { opts, source, mirror } = mirrored()
    const old = mirror.comments!.map((c, i) => ({
      ...c,
      body: c.body.replace(
        /<!-- gitlab-actions:sync [^>]*-->/,
        formatMarker({ v: 1, comment: `github:${i + 1}` }),
      ),
    }))
    const stale = { ...mirror, comments: old }
    const edited = { ...source, comments: [comment(1, 'one, edited'), comment(2, 'two')] }
    expect(plan([edited], [stale], opts).ops).toEqual([])
    const deleted = { ...source, comment_count: 1, comments: [comment(1, 'one')] }
    expect(plan([deleted], [stale], opts).ops.map((o) => o.kind)).toEqual(['comment-delete', 'update'])
  })

  it('a comment the sync did not write is never edited or deleted, even with a marker', () => {
    const { opts, source, mirror } = mirrored()
    const forged = { ...mirror, comments: mirror.comments!.map((c) => ({ ...c, author: 'mallory' })) }
    const gone = { ...source, comment_count: 0, comments: [] }
    expect(plan([gone], [forged], opts).ops.filter((o) => o.kind.startsWith('comment-'))).toEqual([])
  })
})

describe('turning comments on', () => {
  it('rewrites no marker of a pair without comments', () => {
    const issues = [gh(1), gh(2), gh(3)]
    const first = plan(issues, [], options({ comments: false }))
    const { github, gitlab } = applyInMemory(first.ops, issues, [])
    expect(plan(github, gitlab, options({ comments: false })).ops).toEqual([])
    expect(plan(github, gitlab, options({ comments: true })).ops).toEqual([])
  })
})
