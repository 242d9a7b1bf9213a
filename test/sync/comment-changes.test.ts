import { startSyncHarness, type SyncHarness } from '../support/sync-harness.js'

let h: SyncHarness
beforeEach(async () => {
  h = await startSyncHarness()
})
afterEach(async () => h.close())

const ALICE = 'glpat-alice-token'
const text = (body: string) => body.split('\n')[2]

describe('comment edits and deletions', () => {
  it('an edited GitHub comment rewrites its GitLab mirror; a deleted one deletes it; then nothing', async () => {
    const issue = h.gh.addIssue({ title: 'Crash' })
    h.gh.comment(1, 'first words')
    h.gh.comment(1, 'second thoughts')
    await h.run()
    const [mirror] = await h.glIssues()
    const iid = mirror!.iid as number
    expect((await h.glNotes(iid)).map((n) => text(n.body))).toEqual(['first words', 'second thoughts'])

    issue.comments[0]!.body = 'first words, edited'
    issue.comments.splice(1, 1)
    const report = await h.run()
    expect(report.failed).toEqual([])
    expect([report.edited.length, report.deleted.length, report.commented.length]).toEqual([1, 1, 0])
    const notes = await h.glNotes(iid)
    expect(notes.map((n) => text(n.body))).toEqual(['first words, edited'])
    expect(notes[0]!.author.username).toBe('syncbot')
    expect((await h.glIssues())[0]).toMatchObject({ user_notes_count: 1 })

    h.resetCounts()
    expect((await h.run()).planned).toEqual([])
    expect(h.writes()).toEqual({ github: 0, gitlab: 0 })
  })

  it('event mode picks up an edit that moved no count', async () => {
    const issue = h.gh.addIssue({ title: 'Crash' })
    h.gh.comment(1, 'before')
    await h.run()
    issue.comments[0]!.body = 'after'
    const report = await h.run({ only: 1 })
    expect(report.edited).toHaveLength(1)
    expect((await h.glNotes(1)).map((n) => text(n.body))).toEqual(['after'])
  })

  it('both: a GitLab note edited and deleted flows to its GitHub mirror', async () => {
    h.gh.addIssue({ title: 'Crash' })
    await h.run({ direction: 'both' })
    const one = await h.t.http('POST', '/api/v4/projects/acme%2Fwidgets/issues/1/notes', {
      token: ALICE,
      json: { body: 'a GitLab note' },
    })
    await h.t.http('POST', '/api/v4/projects/acme%2Fwidgets/issues/1/notes', {
      token: ALICE,
      json: { body: 'going away' },
    })
    await h.run({ direction: 'both' })
    expect(h.gh.issues[0]!.comments.map((c) => text(c.body))).toEqual(['a GitLab note', 'going away'])
    const two = (await h.glNotes(1))[1]!
    expect(
      (
        await h.t.http(
          'PUT',
          `/api/v4/projects/acme%2Fwidgets/issues/1/notes/${(one.body as { id: number }).id}`,
          {
            token: ALICE,
            json: { body: 'a GitLab note, edited' },
          },
        )
      ).status,
    ).toBe(200)
    expect(
      (await h.t.http('DELETE', `/api/v4/projects/acme%2Fwidgets/issues/1/notes/${two.id}`, { token: ALICE }))
        .status,
    ).toBe(204)
    const report = await h.run({ direction: 'both' })
    expect(report.failed).toEqual([])
    expect(h.gh.issues[0]!.comments.map((c) => [text(c.body), c.user])).toEqual([
      ['a GitLab note, edited', 'sync-bot'],
    ])
    h.resetCounts()
    expect((await h.run({ direction: 'both' })).planned).toEqual([])
    expect(h.writes()).toEqual({ github: 0, gitlab: 0 })
  })

  it('an edit on both sides since the last run is a conflict: reported, both left alone', async () => {
    const issue = h.gh.addIssue({ title: 'Crash' })
    h.gh.comment(1, 'original')
    await h.run()
    const [note] = await h.glNotes(1)
    // a maintainer edits the mirror on GitLab, and the author edits the source on GitHub
    const handEdited = note!.body.replace('original', 'fixed a typo on GitLab')
    await h.t.http('PUT', `/api/v4/projects/acme%2Fwidgets/issues/1/notes/${note!.id}`, {
      token: 'glpat-root-token',
      json: { body: handEdited },
    })
    issue.comments[0]!.body = 'original, edited on GitHub'
    h.resetCounts()
    const report = await h.run({ only: 1 })
    expect(report.planned).toEqual([])
    expect(report.skipped).toEqual([
      {
        key: 'github#1',
        reason: `comment github:${issue.comments[0]!.id} was edited on github and its mirror gitlab:${note!.id} was edited too since the last sync; both left alone`,
      },
    ])
    expect(h.writes()).toEqual({ github: 0, gitlab: 0 })
    expect((await h.glNotes(1))[0]!.body).toBe(handEdited)
    expect(issue.comments[0]!.body).toBe('original, edited on GitHub')
  })
})
