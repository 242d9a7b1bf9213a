import { startServer, type TestServer } from '../../support/server.js'
import { detailSeed, OTHER, P, T } from './issue-details-seed.js'

/*
 * Quick actions in notes and descriptions, against the real server (GitLab's
 * `QuickActions::InterpretService`, `lib/api/notes.rb`). Seed: acme/widgets issue #1 has labels
 * bug and only-here, milestone v1.0, assignee rita, a 1h estimate and 30m spent; issue #2 is
 * bare (author rita); issue #6 has its discussion locked. Rita is a Reporter, Gus a Guest.
 */

let t: TestServer
beforeEach(async () => {
  t = await startServer(detailSeed)
})
afterEach(() => t.close())

type Json = Record<string, unknown>
const note = (iid: number, body: string, token: string = T.reporter) =>
  t.http('POST', `${P}/issues/${iid}/notes`, { token, json: { body } })
const issue = async (iid: number, path = P) =>
  (await t.http('GET', `${path}/issues/${iid}`, { token: T.root })).body as Json
const notes = async (iid: number) =>
  (
    (await t.http('GET', `${P}/issues/${iid}/notes`, { token: T.root, query: 'sort=asc' })).body as Json[]
  ).map((n) => [n.body, n.system])
const labelId = (title: string) => {
  const store = t.server.store
  return store.labels.byTitle(store.projects.byPath('acme/widgets')!.id, title)!.id
}

describe('a note made only of commands', () => {
  it('202 with commands_changes and the summary; the change is made and no comment is left', async () => {
    const res = await note(2, '/close')
    expect([res.status, res.body]).toEqual([
      202,
      { commands_changes: { state_event: 'close' }, summary: ['Closed this issue.'] },
    ])
    expect(await issue(2)).toMatchObject({ state: 'closed', user_notes_count: 0 })
    expect(await notes(2)).toEqual([])
  })

  it('several commands: one summary string, the messages joined by spaces, in the order written', async () => {
    const res = await note(2, '/label ~bug\n/assign @pam\n/due 2030-01-31\n/lock')
    expect(res.status).toBe(202)
    expect(res.body).toEqual({
      commands_changes: {
        add_label_ids: [labelId('bug')],
        assignee_ids: [5],
        due_date: '2030-01-31',
        discussion_locked: true,
      },
      summary: [
        'Added ~"bug" label. Assigned @pam. Set the due date to Jan 31, 2030. Locked the discussion.',
      ],
    })
    expect(await issue(2)).toMatchObject({
      labels: ['bug'],
      assignees: [expect.objectContaining({ username: 'pam' })],
      due_date: '2030-01-31',
      discussion_locked: true,
    })
    // the system notes of the equivalent edit
    expect(await notes(2)).toEqual([
      ['locked the discussion in this issue', true],
      ['changed due date to January 31, 2030', true],
      ['assigned to @pam', true],
    ])
  })

  it('an unavailable command is taken out and answers "Could not apply"; nothing changes', async () => {
    // a Guest may not close someone else's issue; issue #1 is not closed, so /reopen is unavailable
    const guest = await note(2, '/close', T.guest)
    expect([guest.status, guest.body]).toEqual([
      202,
      { commands_changes: {}, summary: ['Could not apply close command.'] },
    ])
    const reopen = await note(1, '/reopen')
    expect(reopen.body).toEqual({ commands_changes: {}, summary: ['Could not apply reopen command.'] })
    // /type is for work items only
    expect((await note(1, '/type task')).body).toEqual({
      commands_changes: {},
      summary: ['Could not apply type command.'],
    })
    expect(await issue(2)).toMatchObject({ state: 'opened' })
  })

  it('commands with nothing to say are 400 "Failed to apply commands."', async () => {
    const res = await note(2, '/title')
    expect([res.status, res.body]).toEqual([400, { message: '400 Bad request - Failed to apply commands.' }])
    const unknown = await note(2, '/label ~nope')
    expect(unknown.body).toEqual({ message: '400 Bad request - Failed to apply commands.' })
    expect(await issue(2)).toMatchObject({ title: 'Second', labels: [] })
  })
})

describe('a note with text and commands', () => {
  it('201: the comment keeps the text without the command lines, commands_changes says what changed', async () => {
    const res = await note(1, 'Taking this.\n/unassign\n/title Renamed first\n\nSee you.')
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      body: 'Taking this.\nSee you.',
      commands_changes: { assignee_ids: [], title: 'Renamed first' },
    })
    expect(await issue(1)).toMatchObject({ title: 'Renamed first', assignees: [], user_notes_count: 1 })
  })

  it('commands inside code blocks, inline code and >>> quotes are text, and are not run', async () => {
    const bodies = [
      '```\n/close\n```',
      '`\n/close\n`',
      '>>>\n/close\n>>>',
      'use `/close`',
      ' /close',
      '/closed',
    ]
    for (const body of bodies) {
      const res = await note(2, body)
      expect([res.status, (res.body as Json).body]).toEqual([201, body])
    }
    // the same body with a command outside the fence: only that one runs
    const mixed = await note(2, '```\n/close\n```\n/label ~bug')
    expect([mixed.status, (mixed.body as Json).body]).toEqual([201, '```\n/close\n```'])
    expect(await issue(2)).toMatchObject({ state: 'opened', labels: ['bug'] })
  })

  it('undefined commands stay text: unknown names, and EE commands on CE', async () => {
    const unknown = await note(2, '/nonsense :thumbsup:\n/close')
    expect([unknown.status, (unknown.body as Json).body]).toEqual([201, '/nonsense :thumbsup:'])
    const ce = await startServer(detailSeed, { edition: 'ce' })
    try {
      const res = await ce.http('POST', `${P}/issues/2/notes`, {
        token: T.reporter,
        json: { body: '/weight 3' },
      })
      expect([res.status, (res.body as Json).body]).toEqual([201, '/weight 3'])
    } finally {
      await ce.close()
    }
  })
})

describe('labels, milestones and metadata', () => {
  it('/unlabel one, /relabel, /remove_milestone, /copy_metadata', async () => {
    const unlabel = await note(1, '/unlabel ~only-here')
    expect(unlabel.body).toEqual({
      commands_changes: { remove_label_ids: [labelId('only-here')] },
      summary: ['Removed ~"only-here" label.'],
    })
    expect((await issue(1)).labels).toEqual(['bug'])
    await note(1, '/relabel only-here')
    expect((await issue(1)).labels).toEqual(['only-here'])
    const removed = await note(1, '/remove_milestone')
    expect(removed.body).toEqual({
      commands_changes: { milestone_id: null },
      summary: ['Removed %"v1.0" milestone.'],
    })
    expect((await issue(1)).milestone).toBeNull()
    const copy = await note(2, '/copy_metadata #1')
    expect((copy.body as Json).summary).toEqual(['Copied labels and milestone from #1.'])
    expect(await issue(2)).toMatchObject({ labels: ['only-here'], milestone: null })
    const milestone = await note(2, '/milestone %"v1.0"')
    expect((milestone.body as Json).summary).toEqual(['Set the milestone to %"v1.0".'])
    expect((await issue(2)).milestone).toMatchObject({ title: 'v1.0' })
  })

  it('/confidential, /unlock, /remove_due_date, and EE /reassign, /weight, /clear_weight', async () => {
    expect((await note(2, '/confidential')).body).toEqual({
      commands_changes: { confidential: true },
      summary: ['Made this issue confidential.'],
    })
    expect((await note(6, '/unlock')).body).toMatchObject({ summary: ['Unlocked the discussion.'] })
    await note(2, '/due 2030-01-01')
    expect((await note(2, '/remove_due_date')).body).toMatchObject({ summary: ['Removed the due date.'] })
    expect((await note(1, '/reassign @pam @gus')).body).toEqual({
      commands_changes: { assignee_ids: [5, 6] },
      summary: ['Changed assignee(s).'],
    })
    expect((await note(2, '/weight 3')).body).toMatchObject({ summary: ['Set weight to 3.'] })
    expect((await issue(2)).weight).toBe(3)
    expect((await note(2, '/clear_weight')).body).toMatchObject({ summary: ['Cleared weight.'] })
    expect(await issue(1)).toMatchObject({ assignees: [{ username: 'pam' }, { username: 'gus' }] })
    expect(await issue(2)).toMatchObject({ confidential: true, due_date: null, weight: null })
    expect(await issue(6)).toMatchObject({ discussion_locked: false })
  })

  it('metadata commands are unavailable below Planner: a Guest gets "Could not apply"', async () => {
    const res = await note(2, '/label ~bug\n/assign me', T.guest)
    expect(res.body).toEqual({
      commands_changes: {},
      summary: ['Could not apply label command. Could not apply assign command.'],
    })
  })
})

describe('time tracking', () => {
  it('/estimate, /spend with a date, /remove_estimate, /remove_time_spent, with their system notes', async () => {
    const res = await note(2, '/estimate 2h\n/spend 30m 2020-01-02')
    expect(res.status).toBe(202)
    expect(res.body).toMatchObject({
      commands_changes: {
        time_estimate: 7200,
        spend_time: { duration: 1800, user_id: 4, spent_at: '2020-01-02T12:00:00.000Z' },
      },
      summary: ['Set time estimate to 2h. Added 30m spent time.'],
    })
    expect((await issue(2)).time_stats).toMatchObject({ time_estimate: 7200, total_time_spent: 1800 })
    expect(await notes(2)).toEqual([
      ['changed time estimate to 2h', true],
      ['added 30m of time spent at 2020-01-02', true],
    ])
    const future = await note(2, '/spend 1h 2999-01-01')
    expect(future.body).toEqual({ message: '400 Bad request - Failed to apply commands.' })
    await note(2, '/remove_estimate\n/remove_time_spent')
    expect((await issue(2)).time_stats).toMatchObject({ time_estimate: 0, total_time_spent: 0 })
  })
})

describe('subscriptions, to-dos, duplicates and moves', () => {
  it('/subscribe, /unsubscribe and /todo act for the caller', async () => {
    expect((await note(2, '/subscribe', T.guest)).body).toEqual({
      commands_changes: { subscription_event: 'subscribe' },
      summary: ['Subscribed to notifications.'],
    })
    expect((await t.http('GET', `${P}/issues/2`, { token: T.guest })).body).toMatchObject({
      subscribed: true,
    })
    expect((await note(2, '/unsubscribe', T.guest)).body).toMatchObject({
      summary: ['Unsubscribed from notifications.'],
    })
    expect((await note(2, '/todo', T.guest)).body).toMatchObject({ summary: ['Added a to-do item.'] })
    expect(t.server.store.todos.ofUser(6)).toHaveLength(1)
    expect((await note(2, '/todo', T.guest)).body).toMatchObject({
      summary: ['Could not apply todo command.'],
    })
  })

  it('/duplicate closes the issue and notes both; /move moves it as the move API does', async () => {
    const dup = await note(2, '/duplicate #1')
    expect(dup.body).toEqual({
      commands_changes: { canonical_issue_id: expect.any(Number) },
      summary: [
        `Closed this Issue. Marked as related to, and a duplicate of, ${t.server.instance.baseUrl}/acme/widgets/-/issues/1.`,
      ],
    })
    const first = await issue(1)
    expect(await issue(2)).toMatchObject({
      state: 'closed',
      _links: expect.objectContaining({ closed_as_duplicate_of: (first._links as Json).self }),
    })
    expect(first._links).toMatchObject({ closed_as_duplicate_of: null })
    // GitLab also relates the two issues (`IssueLinks::CreateService`), with a note on each
    expect(await notes(2)).toEqual([
      ['marked this issue as a duplicate of #1', true],
      ['marked this issue as related to #1', true],
    ])
    expect((await notes(1)).slice(-2)).toEqual([
      ['marked #2 as a duplicate of this issue', true],
      ['marked this issue as related to #2', true],
    ])
    const self = await note(1, '/duplicate #1')
    expect((self.body as Json).summary).toEqual(['Failed to mark the Issue as duplicate of itself.'])

    const move = await note(1, '/move acme/other')
    expect(move.body).toEqual({ commands_changes: {}, summary: ['Moved this item to acme/other.'] })
    expect(await issue(1)).toMatchObject({ state: 'closed', moved_to_id: expect.any(Number) })
    expect(await issue(2, OTHER)).toMatchObject({ title: 'First' })
    // a test case cannot move (`move_issue` needs a type that supports it)
    expect((await note(5, '/move acme/other')).body).toEqual({
      commands_changes: {},
      summary: ['Could not apply move command.'],
    })
    const nowhere = await note(2, '/move acme/none')
    expect((nowhere.body as Json).summary).toEqual([
      "Unable to move. Target project or group doesn't exist or doesn't support this item type.",
    ])
  })
})

describe('/duplicate across projects', () => {
  it('the canonical issue is linked only for callers who can read it', async () => {
    const PUBLIC = '/api/v4/projects/acme%2Fpublic'
    const dup = await t.http('POST', `${PUBLIC}/issues/1/notes`, {
      token: T.root,
      json: { body: '/duplicate acme/widgets#1' },
    })
    expect(dup.status).toBe(202)
    const link = (await issue(1))._links as Json
    expect(((await issue(1, PUBLIC))._links as Json).closed_as_duplicate_of).toBe(link.self)
    const outsider = await t.http('GET', `${PUBLIC}/issues/1`, { token: T.outsider })
    expect(outsider.body).toMatchObject({
      state: 'closed',
      _links: expect.objectContaining({ closed_as_duplicate_of: null }),
    })
    const canonical = (
      (await t.http('GET', `${P}/issues/1/notes`, { token: T.root, query: 'sort=asc' })).body as Json[]
    ).map((n) => n.body)
    expect(canonical.slice(-2)).toEqual([
      'marked public#1 as a duplicate of this issue',
      'marked this issue as related to public#1',
    ])
  })
})

describe('/done, /award and /severity', () => {
  it("/done marks the caller's pending to-do done; the issue can be marked again", async () => {
    expect((await note(2, '/done', T.guest)).body).toEqual({
      commands_changes: {},
      summary: ['Could not apply done command.'],
    })
    await note(2, '/todo', T.guest)
    const done = await note(2, '/done', T.guest)
    expect([done.status, done.body]).toEqual([
      202,
      { commands_changes: { todo_event: 'done' }, summary: ['Marked to-do item as done.'] },
    ])
    expect(t.server.store.todos.ofUser(6).map((todo) => todo.state)).toEqual(['done'])
    // with no pending to-do left, the to-do API makes a new one (304 while one is pending)
    const again = await t.http('POST', `${P}/issues/2/todo`, { token: T.guest })
    expect(again.status).toBe(201)
    expect(t.server.store.todos.ofUser(6).map((todo) => todo.state)).toEqual(['done', 'pending'])
  })

  it("/award toggles the caller's emoji; thumbs up and down are the issue's upvotes and downvotes", async () => {
    const up = await note(2, '/award :thumbsup:')
    expect([up.status, up.body]).toEqual([
      202,
      { commands_changes: { emoji_award: 'thumbsup' }, summary: ['Toggled :thumbsup: emoji reaction.'] },
    ])
    // `:-1:` is `thumbsdown`; `/react` is the same command
    await note(2, '/react :-1:', T.guest)
    expect(await issue(2)).toMatchObject({ upvotes: 1, downvotes: 1 })
    await note(2, '/award :thumbsup:')
    expect(await issue(2)).toMatchObject({ upvotes: 0, downvotes: 1 })
    // an award with text: the comment keeps the text; an award marks the caller's to-dos done
    await note(2, '/todo', T.guest)
    const tada = await note(2, 'Nice.\n/award :tada:', T.guest)
    expect([tada.status, (tada.body as Json).body]).toEqual([201, 'Nice.'])
    expect(t.server.store.awardEmoji.ofIssue(2)).toEqual([
      { user_id: 6, name: 'thumbsdown' },
      { user_id: 6, name: 'tada' },
    ])
    expect(t.server.store.todos.ofUser(6).map((todo) => todo.state)).toEqual(['done'])
    // not an emoji name: nothing to say, nothing stored
    const unknown = await note(2, '/award :not-an-emoji:')
    expect([unknown.status, unknown.body]).toEqual([
      400,
      { message: '400 Bad request - Failed to apply commands.' },
    ])
    expect(t.server.store.awardEmoji.ofIssue(2)).toHaveLength(2)
  })

  it('/severity sets the severity of an incident with its note; issues answer "Could not apply"', async () => {
    const res = await note(3, '/severity S1')
    expect([res.status, res.body]).toEqual([
      202,
      { commands_changes: {}, summary: ['Severity updated to Critical.'] },
    ])
    expect(await issue(3)).toMatchObject({ severity: 'CRITICAL' })
    await note(3, '/severity critical')
    expect(await notes(3)).toEqual([['changed the severity to **Critical - S1**', true]])
    expect((await note(3, '/severity 9')).body).toEqual({
      commands_changes: {},
      summary: ['No severity matches the provided parameter'],
    })
    // `admin_issue` only: a Guest is told the same but nothing changes (`filter_severity`)
    expect((await note(3, '/severity low', T.guest)).body).toMatchObject({
      summary: ['Severity updated to Low.'],
    })
    expect(await issue(3)).toMatchObject({ severity: 'CRITICAL' })
    expect((await note(2, '/severity 1')).body).toEqual({
      commands_changes: {},
      summary: ['Could not apply severity command.'],
    })
    expect(await issue(2)).toMatchObject({ severity: 'UNKNOWN' })
  })
})

describe('/promote_to_incident', () => {
  it('makes an issue an incident, reporting no change; an incident or a Guest answers "Could not apply"', async () => {
    const res = await note(2, '/promote_to_incident')
    expect([res.status, res.body]).toEqual([
      202,
      { commands_changes: {}, summary: ['Issue has been promoted to incident'] },
    ])
    expect(await issue(2)).toMatchObject({ issue_type: 'incident', type: 'INCIDENT', severity: 'UNKNOWN' })
    const again = await note(2, '/promote_to_incident')
    expect([again.status, again.body]).toEqual([
      202,
      { commands_changes: {}, summary: ['Could not apply promote_to_incident command.'] },
    ])
    const guest = await note(1, '/promote_to_incident', T.guest)
    expect(guest.body).toEqual({
      commands_changes: {},
      summary: ['Could not apply promote_to_incident command.'],
    })
    expect(await issue(1)).toMatchObject({ issue_type: 'issue' })
  })

  it('with other commands: the comment keeps its text and commands_changes its other keys', async () => {
    const res = await note(2, 'Paging.\n/promote_to_incident\n/severity high\n/lock')
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ body: 'Paging.', commands_changes: { discussion_locked: true } })
    expect(await issue(2)).toMatchObject({ issue_type: 'incident', discussion_locked: true })
  })

  it('on create from 15.8; before, a new issue stays an issue; before 14.5 the line is text', async () => {
    for (const [version, type, description] of [
      ['15.8.0', 'incident', 'Outage'],
      ['15.7.0', 'issue', 'Outage'],
      ['14.4.0', 'issue', 'Outage\n/promote_to_incident'],
    ] as const) {
      const v = await startServer(detailSeed, { gitlabVersion: version })
      try {
        const res = await v.http('POST', `${P}/issues`, {
          token: T.reporter,
          json: { title: 'Down', description: 'Outage\n/promote_to_incident' },
        })
        expect([version, res.status]).toEqual([version, 201])
        expect([version, res.body]).toEqual([
          version,
          expect.objectContaining({ issue_type: type, description }),
        ])
      } finally {
        await v.close()
      }
    }
  })
})

describe('commands_changes', () => {
  it("lists only the keys GitLab's Note#commands_changes lets through, in its order", async () => {
    const res = await note(2, '/title Renamed\n/lock\n/due 2030-01-31\n/label ~bug\n/move acme/other')
    expect(res.status).toBe(202)
    expect(Object.keys((res.body as Json).commands_changes as Json)).toEqual([
      'due_date',
      'add_label_ids',
      'discussion_locked',
      'title',
    ])
  })
})

describe('descriptions', () => {
  it('on create: the commands are taken out and applied; those that need a saved issue are not', async () => {
    const res = await t.http('POST', `${P}/issues`, {
      token: T.reporter,
      json: { title: 'New', description: 'Body\n/label ~bug\n/estimate 2h\n/close' },
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      description: 'Body',
      labels: ['bug'],
      state: 'opened',
      time_stats: { time_estimate: 7200 },
    })
  })

  it('on create: /severity sets the severity of a new incident', async () => {
    const res = await t.http('POST', `${P}/issues`, {
      token: T.reporter,
      json: { title: 'Down', issue_type: 'incident', description: 'Paged\n/severity high' },
    })
    expect(res.body).toMatchObject({ description: 'Paged', severity: 'HIGH' })
  })

  it('on edit: /close and /lock run, the stored description loses them, the edit leaves its notes', async () => {
    const res = await t.http('PUT', `${P}/issues/2`, {
      token: T.reporter,
      json: { description: 'Now with text\n/close\n/lock' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ description: 'Now with text', state: 'closed', discussion_locked: true })
    expect(await notes(2)).toEqual([
      ['changed the description', true],
      ['locked the discussion in this issue', true],
    ])
  })

  it('an edit without a description runs nothing', async () => {
    const res = await t.http('PUT', `${P}/issues/2`, { token: T.reporter, json: { title: '/close' } })
    expect(res.body).toMatchObject({ title: '/close', state: 'opened' })
  })
})

describe('title and due date system notes', () => {
  it('/title notes the change with the changed part marked', async () => {
    expect((await note(2, '/title Second issue')).status).toBe(202)
    expect((await note(1, '/title Fist')).status).toBe(202)
    expect(await notes(2)).toEqual([['changed title from **Second** to **Second{+ issue+}**', true]])
    expect(await notes(1)).toEqual([['changed title from **Fi{-r-}st** to **Fist**', true]])
  })

  it('/title marks by character, as Ruby indexes: an emoji is one, never half of one', async () => {
    expect((await note(2, '/title Second \u{1F600}')).status).toBe(202)
    expect((await note(2, '/title Second \u{1F603}')).status).toBe(202)
    expect(await notes(2)).toEqual([
      ['changed title from **Second** to **Second{+ \u{1F600}+}**', true],
      ['changed title from **Second {-\u{1F600}-}** to **Second {+\u{1F603}+}**', true],
    ])
  })

  it('/due and /remove_due_date note the date set, then the date removed', async () => {
    await note(2, '/due 2030-01-31')
    await note(2, '/due 2030-01-31') // the same date again: no change, no note
    await note(2, '/remove_due_date')
    expect(await notes(2)).toEqual([
      ['changed due date to January 31, 2030', true],
      ['removed due date January 31, 2030', true],
    ])
  })

  it('before 16.0, "removed due date" names no date', async () => {
    const old = await startServer(detailSeed, { gitlabVersion: '15.0.0' })
    try {
      for (const body of ['/due 2030-01-31', '/remove_due_date'])
        await old.http('POST', `${P}/issues/2/notes`, { token: T.reporter, json: { body } })
      const res = await old.http('GET', `${P}/issues/2/notes`, { token: T.root, query: 'sort=asc' })
      expect((res.body as Json[]).map((n) => [n.body, n.system])).toEqual([
        ['changed due date to January 31, 2030', true],
        ['removed due date', true],
      ])
    } finally {
      await old.close()
    }
  })

  it('a plain edit of title and due date notes both, in GitLab order; an unchanged value notes nothing', async () => {
    const edit = (json: Json) => t.http('PUT', `${P}/issues/1`, { token: T.reporter, json })
    expect((await edit({ title: 'Worst', due_date: '2031-02-03' })).status).toBe(200)
    expect((await edit({ title: 'Worst', due_date: '2031-02-03' })).status).toBe(200)
    expect((await edit({ title: 'Worst ever', due_date: '' })).status).toBe(200)
    const listed = (await t.http('GET', `${P}/issues/1/notes`, { token: T.root, query: 'sort=asc' }))
      .body as Json[]
    expect(listed.map((n) => [n.body, n.system, (n.author as Json).username])).toEqual([
      ['changed title from **{-Fi-}rst** to **{+Wo+}rst**', true, 'rita'],
      ['changed due date to February 3, 2031', true, 'rita'],
      ['changed title from **Worst** to **Worst{+ ever+}**', true, 'rita'],
      ['removed due date February 3, 2031', true, 'rita'],
    ])
    expect(await issue(1)).toMatchObject({ title: 'Worst ever', due_date: null, user_notes_count: 0 })
  })

  it('a new issue with a due date (or /due in its description) notes the date', async () => {
    const res = await t.http('POST', `${P}/issues`, {
      token: T.reporter,
      json: { title: 'Dated', due_date: '2030-12-24' },
    })
    const viaCommand = await t.http('POST', `${P}/issues`, {
      token: T.reporter,
      json: { title: 'Dated too', description: 'Soon\n/due 2030-12-25' },
    })
    for (const [created, day] of [
      [res, 'December 24, 2030'],
      [viaCommand, 'December 25, 2030'],
    ] as const) {
      expect(created.status).toBe(201)
      expect(await notes((created.body as Json).iid as number)).toEqual([
        [`changed due date to ${day}`, true],
      ])
    }
  })
})
