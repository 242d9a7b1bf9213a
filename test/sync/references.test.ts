import { rewriteReferences, type LinkContext } from '../../src/sync/references.js'
import { startSyncHarness, type SyncHarness } from '../support/sync-harness.js'

const ctx: LinkContext = {
  github: { repo: 'acme/widgets', web: 'https://github.com/acme/widgets' },
  gitlab: { project: 'acme/widgets', web: 'https://gitlab.example.com/acme/widgets' },
  numbers: { github: new Map([[1, 7]]), gitlab: new Map([[7, 1]]) },
  userMap: { octocat: 'alice' },
}

describe('rewriteReferences (pure)', () => {
  it.each([
    ['See #1 and #2.', 'See #7 and https://github.com/acme/widgets/issues/2.'],
    ['acme/widgets#1, other/repo#3', '#7, https://github.com/other/repo/issues/3'],
    ['(#1)', '(#7)'],
    ['!45 stays', '!45 stays'],
    ['@octocat and @someone.', '@alice and `@someone`.'],
    ['mail me: a@b.com, https://x.com/@octocat', 'mail me: a@b.com, https://x.com/@octocat'],
    ['`#1 @someone` and ``a ` #1``', '`#1 @someone` and ``a ` #1``'],
    ['```\n#1 @someone\n```\n#1', '```\n#1 @someone\n```\n#7'],
    [
      '[x](https://example.com/page#1) ![i](/acme/widgets/raw/a.png)',
      '[x](https://example.com/page#1) ![i](https://github.com/acme/widgets/raw/a.png)',
    ],
    ['a#1 heading# 1 #1a', 'a#1 heading# 1 #1a'],
  ])('GitHub -> GitLab: %j', (input, expected) => {
    expect(rewriteReferences(input, 'github', ctx)).toBe(expected)
  })

  it.each([
    [
      '#7 and #8, !45',
      '#1 and https://gitlab.example.com/acme/widgets/-/issues/8, https://gitlab.example.com/acme/widgets/-/merge_requests/45',
    ],
    [
      'group/sub/proj#3 group/proj!4',
      'https://gitlab.example.com/group/sub/proj/-/issues/3 https://gitlab.example.com/group/proj/-/merge_requests/4',
    ],
    ['@alice @bob @group/team', '@octocat `@bob` `@group/team`'],
    [
      '![shot](/uploads/abc123/shot.png) <img src="/uploads/d/e.png">',
      '![shot](https://gitlab.example.com/acme/widgets/uploads/abc123/shot.png) <img src="https://gitlab.example.com/acme/widgets/uploads/d/e.png">',
    ],
    ['[help](/help/user/markdown)', '[help](https://gitlab.example.com/help/user/markdown)'],
    ['~~~\n!45 @bob\n~~~', '~~~\n!45 @bob\n~~~'],
    ['an unclosed `span #7', 'an unclosed `span #1'],
  ])('GitLab -> GitHub: %j', (input, expected) => {
    expect(rewriteReferences(input, 'gitlab', ctx)).toBe(expected)
  })
})

describe('references and mentions, end to end', () => {
  let h: SyncHarness
  beforeEach(async () => {
    h = await startSyncHarness({ direction: 'both', userMap: { octocat: 'alice' } })
  })
  afterEach(async () => h.close())

  it('rewrites for each side, leaves code alone, and the next run writes nothing', async () => {
    h.gh.addIssue({ title: 'Target' })
    h.gh.addIssue({
      title: 'Refers',
      body: 'Dup of #1, see #99 and other/repo#5; cc @octocat @stranger\n\n```\n#1 @stranger\n```',
    })
    await h.run()
    h.gh.comment(2, 'also `@stranger` and @stranger, ![x](/acme/widgets/assets/1.png)')
    await h.gitlab.issues.create('acme/widgets', {
      title: 'From GitLab',
      description: 'Blocked by #1 and !3, thanks @alice and @bob ![s](/uploads/abc/s.png)',
    })
    const report = await h.run()
    expect(report.failed).toEqual([])
    const gl = await h.glIssues()
    const refers = gl.find((i) => i.title === 'Refers')!
    expect(refers.description).toContain(
      'Dup of #1, see https://github.com/acme/widgets/issues/99 and https://github.com/other/repo/issues/5; cc @alice `@stranger`\n\n```\n#1 @stranger\n```',
    )
    const [note] = await h.glNotes(refers.iid as number)
    expect(note!.body).toContain(
      'also `@stranger` and `@stranger`, ![x](https://github.com/acme/widgets/assets/1.png)',
    )
    const mirror = h.gh.issues.find((i) => i.title === 'From GitLab')!
    const web = `${h.t.baseUrl}/acme/widgets`
    expect(mirror.body).toContain(
      `Blocked by #1 and ${web}/-/merge_requests/3, thanks @octocat and \`@bob\` ![s](${web}/uploads/abc/s.png)`,
    )
    h.resetCounts()
    expect((await h.run()).planned).toEqual([])
    expect(h.writes()).toEqual({ github: 0, gitlab: 0 })
  })
})

describe('references in event mode', () => {
  let h: SyncHarness
  beforeEach(async () => {
    h = await startSyncHarness({ userMap: { octocat: 'alice' } })
  })
  afterEach(async () => h.close())

  it('an event on an unchanged issue does not undo the mirrored numbers a full run wrote', async () => {
    await h.gitlab.issues.create('acme/widgets', { title: 'Native' }) // GitLab's iids run one ahead
    h.gh.addIssue({ title: 'Target' })
    h.gh.addIssue({ title: 'Refers', body: 'See #1' })
    await h.run()
    await h.run()
    const mirrorOf2 = async () => (await h.glIssues()).find((i) => i.title === 'Refers')!
    expect((await mirrorOf2()).description).toMatch(/\n\nSee #2\n\n<!-- gitlab-actions:sync /)
    h.gh.comment(2, 'a comment event')
    h.resetCounts()
    const report = await h.run({ only: 2 })
    expect(report.planned.map((o) => o.kind)).toEqual(['comment', 'update'])
    expect(report.updated.map((o) => o.kind === 'update' && o.changed)).toEqual([[]]) // the marker's counts only
    expect((await mirrorOf2()).description).toContain('\n\nSee #2\n')
  })
})
