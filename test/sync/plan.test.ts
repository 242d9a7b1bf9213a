import { plan, type Plan } from '../../src/sync/plan.js'
import type { Op, SideIssue, SyncOptions } from '../../src/sync/model.js'
import { escapeQuickActions, formatMarker, parseMarker, unescapeQuickActions } from '../../src/sync/text.js'
import { applyInMemory, comment, gh, gl, options } from './fixtures.js'

/** Plans, applies in memory, and returns both sides plus the first plan. */
function syncOnce(github: SideIssue[], gitlab: SideIssue[], opts: SyncOptions) {
  const first = plan(github, gitlab, opts)
  return { first, ...applyInMemory(first.ops, github, gitlab) }
}
const summary = (p: Plan) =>
  p.ops.map((op) =>
    op.kind === 'update'
      ? `update ${op.side}#${op.number} ${Object.keys(op.set).join(',')}`
      : op.kind === 'create'
        ? `create ${op.side} from ${op.from.side}#${op.from.number}`
        : `comment ${op.side} from ${op.from.side}:${op.from.comment}`,
  )

describe('plan: creates, updates, closes and no-ops', () => {
  it.each([
    ['github-to-gitlab', ['create gitlab from github#1', 'create gitlab from github#2']],
    ['gitlab-to-github', ['create github from gitlab#5']],
    ['both', ['create gitlab from github#1', 'create gitlab from github#2', 'create github from gitlab#5']],
  ] as const)('%s creates mirrors of the unpaired issues of its source side', (direction, expected) => {
    const p = plan([gh(1), gh(2)], [gl(5)], options({ direction }))
    expect(summary(p)).toEqual(expected)
  })

  it.each(['github-to-gitlab', 'gitlab-to-github', 'both'] as const)(
    '%s: a second plan after applying is empty',
    (direction) => {
      const opts = options({
        direction,
        labelPrefix: 'gh:',
        userMap: { octocat: 'alice' },
        gitlabUsers: ['alice'],
        milestones: { github: ['v1'], gitlab: ['v1'] },
      })
      const github = [
        gh(1, {
          labels: ['bug'],
          assignees: ['octocat'],
          milestone: 'v1',
          comment_count: 1,
          comments: [comment(11, 'first!')],
        }),
        gh(2, { state: 'closed' }),
      ]
      const gitlab = [
        gl(5, { labels: ['backend'], comment_count: 1, comments: [comment(21, 'from gitlab', 'alice')] }),
      ]
      const s = syncOnce(github, gitlab, opts)
      expect(s.first.ops.length).toBeGreaterThan(0)
      const second = plan(s.github, s.gitlab, opts)
      expect(second.ops).toEqual([])
      expect(second.unchanged).toBe(s.first.ops.filter((o) => o.kind === 'create').length)
    },
  )

  it('creates a closed mirror for a closed issue, with labels, users and milestone mapped', () => {
    const opts = options({
      labelPrefix: 'gh:',
      labelMap: { 'kind/bug': 'bug' },
      userMap: { octocat: 'alice', ghost: 'nobody' },
      gitlabUsers: ['alice'],
      milestones: { github: [], gitlab: ['v1'] },
    })
    const [op] = plan(
      [
        gh(1, {
          state: 'closed',
          labels: ['kind/bug', 'ui'],
          assignees: ['octocat', 'ghost', 'unmapped'],
          milestone: 'v1',
        }),
      ],
      [],
      opts,
    ).ops
    expect(op).toMatchObject({
      kind: 'create',
      side: 'gitlab',
      set: {
        state: 'closed',
        labels: ['bug', 'gh:ui'],
        assignees: ['alice'],
        milestone: 'v1',
        title: 'Issue #1',
      },
    })
  })

  it('updates only the fields that changed, and closes and reopens', () => {
    const s = syncOnce([gh(1)], [], options())
    const github = [{ ...s.github[0]!, title: 'Renamed', state: 'closed' as const }]
    const p = plan(github, s.gitlab, options())
    expect(p.ops).toHaveLength(1)
    expect(p.ops[0]).toMatchObject({
      kind: 'update',
      side: 'gitlab',
      number: 1,
      changed: ['title', 'state'],
      set: { title: 'Renamed', state: 'closed' },
    })
    const again = applyInMemory(p.ops, github, s.gitlab)
    const reopened = plan([{ ...github[0]!, state: 'open' }], again.gitlab, options())
    expect(reopened.ops[0]).toMatchObject({ kind: 'update', set: { state: 'open' } })
  })

  it('renaming either issue never creates a duplicate', () => {
    const s = syncOnce([gh(1)], [], options({ direction: 'both' }))
    const github = [{ ...s.github[0]!, title: 'New name' }]
    const gitlab = [{ ...s.gitlab[0]!, title: 'Other name', updated_at: '2026-03-01T00:00:00Z' }]
    expect(
      plan(github, gitlab, options({ direction: 'both' })).ops.filter((o) => o.kind === 'create'),
    ).toEqual([])
  })

  it('one-way: the source overwrites an edit made on the mirror', () => {
    const s = syncOnce([gh(1)], [], options())
    const gitlab = [{ ...s.gitlab[0]!, title: 'Edited on GitLab' }]
    expect(plan(s.github, gitlab, options()).ops[0]).toMatchObject({
      side: 'gitlab',
      set: { title: 'Issue #1' },
    })
  })

  it('a mirror whose origin is gone is reported and not re-created', () => {
    const s = syncOnce([gh(1)], [], options())
    const p = plan([], s.gitlab, options())
    expect(p.ops).toEqual([])
    expect(p.skips).toEqual([expect.objectContaining({ key: 'gitlab#1', origin: 'github#1' })])
  })

  it('two mirrors of one issue: the one by the sync user is kept, the other left alone', () => {
    const s = syncOnce([gh(1)], [], options())
    const copy = { ...s.gitlab[0]!, number: 2, author: 'mallory' }
    const p = plan(s.github, [copy, s.gitlab[0]!], options())
    expect(p.ops).toEqual([])
    expect(p.skips).toEqual([expect.objectContaining({ key: 'gitlab#2' })])
  })

  describe('markers the sync did not write (forged) pair nothing', () => {
    const forgedGh = (number: number, gitlabIid: number, more: Partial<SideIssue> = {}) =>
      gh(number, {
        author: 'mallory',
        title: 'Closed: pwned',
        state: 'closed',
        labels: ['pwned'],
        body: `Rewritten\n${formatMarker({ v: 1, from: 'gitlab', project: 'acme/widgets', project_id: 3, number: gitlabIid })}`,
        comment_count: 1,
        comments: [comment(31, 'Fixed, closing')],
        ...more,
      })
    const owns = (key: string, origin: string) => ({
      key,
      origin,
      reason: expect.stringContaining(`claims to mirror ${origin}, a pairing it does not own`),
    })

    it('github-to-gitlab: a GitHub issue naming GitLab #11 neither writes nor comments on #11, and is reported', () => {
      const p = plan([forgedGh(9, 11)], [gl(11)], options())
      expect(p.ops).toEqual([])
      expect(p.skips).toEqual([owns('github#9', 'gitlab#11')])
      expect(p.skips[0]?.reason).toContain('written by mallory, not by the sync (sync-bot)')
      // Event mode too: the forged issue is the one in scope.
      expect(plan([forgedGh(9, 11)], [gl(11)], options(), { github: [9] })).toMatchObject({
        ops: [],
        skips: [owns('github#9', 'gitlab#11')],
      })
    })

    it('both: forged digests win nothing; the GitLab issue gets its own mirror', () => {
      const s = syncOnce([], [gl(11)], options({ direction: 'both' }))
      const real = s.github[0]!
      // The forged copy carries the real mirror's marker (digests and all) under a later number.
      const forged = forgedGh(9, 11, { body: `Rewritten\n${real.body}`, updated_at: '2026-03-01T00:00:00Z' })
      const p = plan([real, forged], s.gitlab, options({ direction: 'both' }))
      expect(p.ops).toEqual([])
      expect(p.skips).toEqual([owns('github#9', 'gitlab#11')])
      const alone = plan([forged], [gl(11)], options({ direction: 'both' }))
      expect(summary(alone)).toEqual(['create github from gitlab#11'])
    })

    it('a GitLab issue naming GitHub #1 does not write #1 either way', () => {
      const forged = gl(20, {
        title: 'Hijacked',
        body: `x\n${formatMarker({ v: 1, from: 'github', repo: 'acme/widgets', repo_id: 7, number: 1 })}`,
      })
      for (const direction of ['gitlab-to-github', 'both'] as const) {
        const p = plan([gh(1)], [forged], options({ direction }))
        expect(p.ops.filter((o) => o.side === 'github')).toEqual([])
        expect(p.skips).toEqual([owns('gitlab#20', 'github#1')])
      }
    })

    it("without the GitHub token's login (GITHUB_TOKEN), only a GitHub App bot's markers count, on issues and comments", () => {
      const opts = options({ direction: 'both', identity: { gitlab: 'sync-bot' } })
      const bot = (i: SideIssue) => ({ ...i, author: 'github-actions[bot]' })
      const s = syncOnce(
        [],
        [gl(11, { comment_count: 1, comments: [comment(55, 'on GitLab', 'alice')] })],
        opts,
      )
      const mirror = bot(s.github[0]!)
      const echo = { ...mirror.comments![0]!, author: 'github-actions[bot]' }
      // A person's comment that copies a comment marker is still mirrored (its marker defused).
      const copied = { ...comment(56, echo.body, 'mallory'), id: 56 }
      const github = [{ ...mirror, comments: [echo, copied], comment_count: 2 }]
      expect(summary(plan(github, s.gitlab, opts))).toEqual([
        'comment gitlab from github:56',
        'update github#1 body',
      ])
      expect(plan([{ ...github[0]!, author: 'mallory' }], s.gitlab, opts).skips).toEqual([
        owns('github#1', 'gitlab#11'),
      ])
    })
  })

  it('a marker naming another repository is ignored (not paired, not mirrored)', () => {
    const foreign = gl(3, {
      body: `x\n${formatMarker({ v: 1, from: 'github', repo: 'other/repo', repo_id: 99, number: 1 })}`,
    })
    expect(summary(plan([gh(1)], [foreign], options({ direction: 'both' })))).toEqual([
      'create gitlab from github#1',
    ])
  })

  it('event scope plans only the named GitHub issue', () => {
    const p = plan([gh(1), gh(2)], [gl(9)], options({ direction: 'both' }), { github: [2] })
    expect(summary(p)).toEqual(['create gitlab from github#2'])
  })
})

describe('plan: both directions, conflicts and echoes', () => {
  const opts = options({ direction: 'both' })
  const synced = () => syncOnce([gh(1)], [], opts)

  it('a change on one side flows to the other, per field', () => {
    const s = synced()
    const github = [{ ...s.github[0]!, title: 'GitHub title', updated_at: '2026-03-01T00:00:00Z' }]
    const gitlab = s.gitlab.map((i) =>
      i.number === 1 ? { ...i, state: 'closed' as const, updated_at: '2026-03-02T00:00:00Z' } : i,
    )
    const ops = plan(github, gitlab, opts).ops.filter(
      (o): o is Extract<Op, { kind: 'update' }> => o.kind === 'update',
    )
    expect(ops.map((o) => [o.side, o.changed])).toEqual([
      ['github', ['state']],
      ['gitlab', ['title']],
    ])
    const after = applyInMemory(ops, github, gitlab)
    expect(plan(after.github, after.gitlab, opts).ops).toEqual([])
  })

  it.each([
    ['GitHub later', '2026-03-02T00:00:00Z', '2026-03-01T00:00:00Z', 'from GitHub'],
    ['GitLab later', '2026-03-01T00:00:00Z', '2026-03-02T00:00:00Z', 'from GitLab'],
    ['a tie goes to the origin', '2026-03-01T00:00:00Z', '2026-03-01T00:00:00Z', 'from GitHub'],
  ])('both changed the title: %s', (_name, ghAt, glAt, expected) => {
    const s = synced()
    const github = [{ ...s.github[0]!, title: 'from GitHub', updated_at: ghAt }]
    const gitlab = s.gitlab.map((i) =>
      i.number === 1 ? { ...i, title: 'from GitLab', updated_at: glAt } : i,
    )
    const after = applyInMemory(plan(github, gitlab, opts).ops, github, gitlab)
    expect(after.github.find((i) => i.number === 1)!.title).toBe(expected)
    expect(after.gitlab.find((i) => i.number === 1)!.title).toBe(expected)
    expect(plan(after.github, after.gitlab, opts).ops).toEqual([])
  })

  it('a body edited on the GitLab mirror flows back to GitHub without link, marker or escapes', () => {
    const s = synced()
    const mirror = s.gitlab.find((i) => i.number === 1)!
    const edited = mirror.body.replace('Body 1', 'Edited\n\\/close')
    const gitlab = s.gitlab.map((i) => (i === mirror ? { ...i, body: edited } : i))
    const [op] = plan(s.github, gitlab, opts).ops
    expect(op).toMatchObject({ kind: 'update', side: 'github', set: { body: 'Edited\n/close' } })
  })

  it('mirrored comments are never echoed back, and each comment is mirrored once', () => {
    const github = [gh(1, { comment_count: 1, comments: [comment(11, 'hello')] })]
    const gitlab = [gl(4, { comment_count: 1, comments: [comment(21, 'hi from GitLab', 'alice')] })]
    const s = syncOnce(github, gitlab, opts)
    const load = (i: SideIssue) => ({ ...i, comments: i.comments ?? [] })
    const second = plan(s.github.map(load), s.gitlab.map(load), opts)
    expect(second.ops).toEqual([])
    const all = [...s.github, ...s.gitlab].flatMap((i) => i.comments ?? [])
    expect(all.map((c) => c.body.split('\n').at(-3) ?? c.body)).toHaveLength(4)
  })

  it('a confidential GitLab copy of a GitHub issue still follows GitHub, but sends nothing back', () => {
    const s = synced()
    const gitlab = s.gitlab.map((i) =>
      i.number === 1
        ? {
            ...i,
            confidential: true,
            state: 'closed' as const,
            comment_count: 1,
            comments: [comment(31, 'secret detail', 'alice')],
          }
        : i,
    )
    const github = [{ ...s.github[0]!, title: 'GitHub title', comments: [] }]
    const p = plan(github, gitlab, opts)
    expect(p.ops.filter((o) => o.side === 'github')).toEqual([])
    expect(p.ops).toEqual([expect.objectContaining({ kind: 'update', side: 'gitlab', changed: ['title'] })])
    const shared = plan(github, gitlab, { ...opts, includeConfidential: true })
    expect(summary(shared)).toEqual([
      'comment github from gitlab:31',
      'update github#1 state',
      'update gitlab#1 title,body',
    ])
  })

  it('internal notes are not mirrored to GitHub, and are counted', () => {
    const notes = [
      comment(41, 'public note', 'alice'),
      { ...comment(42, 'internal note', 'alice'), internal: true },
    ]
    const p = plan([], [gl(4, { comment_count: 2, comments: notes })], opts)
    expect(summary(p)).toEqual(['create github from gitlab#4', 'comment github from gitlab:41'])
    expect(p.confidential).toEqual({ issues: 0, notes: 1 })
    const hidden = plan([], [gl(5, { confidential: true })], opts)
    expect([hidden.ops, hidden.confidential]).toEqual([[], { issues: 1, notes: 0 }])
  })

  it('without its digests a pair is settled by its origin', () => {
    const s = synced()
    const mirror = s.gitlab.find((i) => i.number === 1)!
    const bare = mirror.body.replace(
      / title=\S+ body=\S+ state=\S+ labels=\S+ assignees=\S+ milestone=\S+/,
      '',
    )
    const gitlab = s.gitlab.map((i) => (i === mirror ? { ...i, body: bare, title: 'changed on GitLab' } : i))
    const ops = plan(s.github, gitlab, opts).ops
    expect(ops[0]).toMatchObject({ side: 'gitlab', set: { title: 'Issue #1' } })
  })
})

describe('text rules', () => {
  it.each([
    ['/close', '\\/close'],
    ['text\n/label ~bug\nmore', 'text\n\\/label ~bug\nmore'],
    ['```\n/close\n```\n/close', '```\n/close\n```\n\\/close'],
    ['~~~sh\n/close\n~~~', '~~~sh\n/close\n~~~'],
    ['```\n/close', '```\n\\/close'],
    ['\\/already', '\\\\/already'],
    ['  /indented', '  /indented'],
    ['a /b', 'a /b'],
  ])('quick actions escaped outside closed fences: %j', (text, escaped) => {
    expect(escapeQuickActions(text)).toBe(escaped)
    expect(unescapeQuickActions(escaped)).toBe(text)
  })

  it('a GitHub /close stays inert text in the GitLab mirror and its comments', () => {
    const [create, note] = plan(
      [gh(1, { body: '/close\n/assign @root', comment_count: 1, comments: [comment(3, '/close')] })],
      [],
      options(),
    ).ops
    expect(create?.kind === 'create' && create.set.body).toContain('\n\\/close\n\\/assign @root\n')
    expect(note?.kind === 'comment' && note.body.split('\n').filter((l) => l.startsWith('/'))).toEqual([])
  })

  it('markers: round trip, the last one wins, values never hold -- or >', () => {
    const m = formatMarker({ v: 1, from: 'github', repo: 'a--b/c->d', number: 12 })
    expect(m.slice(4, -3)).not.toMatch(/--|>/)
    expect(parseMarker(`x ${formatMarker({ number: 1 })}\n${m}`)).toEqual({
      v: '1',
      from: 'github',
      repo: 'a--b/c->d',
      number: '12',
    })
    expect(parseMarker('no marker')).toBeUndefined()
  })

  it('a marker copied into an issue text is defused in the mirror', () => {
    const copied = `see ${formatMarker({ comment: 'github:1' })}`
    const [create] = plan([gh(1, { body: copied })], [], options()).ops
    expect(create?.kind === 'create' && create.set.body).toContain('<!-- gitlab-actions:quoted comment=')
  })

  it('long texts are cut to the target limits, and the cut text is stable', () => {
    const opts = options({ direction: 'gitlab-to-github' })
    const big = gl(1, { title: 'T'.repeat(400), body: `${'word '.repeat(20_000)}` })
    const s = syncOnce([], [big], opts)
    expect(s.github[0]!.title).toHaveLength(256)
    expect(s.github[0]!.body.length).toBeLessThanOrEqual(65_536)
    expect(s.github[0]!.body).toContain('(truncated; the full text is at the link above)')
    expect(plan(s.github, s.gitlab, opts).ops).toEqual([])
  })

  it('CRLF line ends and trailing blanks are not changes', () => {
    const s = syncOnce([gh(1, { body: 'a\r\nb\r\n\r\n' })], [], options())
    const gitlab = [{ ...s.gitlab[0]!, body: `${s.gitlab[0]!.body}\n\n` }]
    expect(plan(s.github, gitlab, options()).ops).toEqual([])
  })
})
