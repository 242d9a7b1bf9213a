import type { AwardEmoji } from '../../schema/index.js'
import { isoNow } from '../domain/clock.js'
import { notFound, recordNotFound, unauthorized } from '../grape/gitlab-errors.js'
import { presentUser } from '../present/users.js'
import type { AwardRow } from '../store/award-emoji.js'
import type { IssueRow } from '../store/issues.js'
import type { NoteRow } from '../store/notes.js'
import type { ProjectRow } from '../store/projects.js'
import { writable, type Actor } from './access.js'
import { canReadInternalNotes, type IssueDeps } from './issues/lookup.js'
import { isEmojiName, normalizeEmojiName } from './quick-actions/emoji.js'

/** What an award call names: an issue, or one of its notes (`note_id`). */
export interface Awardable {
  project: ProjectRow
  iid: number
  noteId?: number
}

/**
 * Award emoji on issues and on their notes (`lib/api/award_emoji.rb`, `AwardEmojis::AddService`,
 * `app/models/award_emoji.rb`). The awardable is found without an access check (`find_by!`,
 * `notes.find`: `404 Not found`); reading it then needs `read_issue` (`404 Award Emoji Not Found`
 * otherwise); anonymous callers read what is public.
 */
export function awardEmojiService(deps: IssueDeps) {
  const { store, instance } = deps.ctx

  const resolve = (actor: Actor, target: Awardable) => {
    const issue = store.issues.byIid(target.project.id, target.iid)
    if (!issue) throw recordNotFound()
    let note: NoteRow | undefined
    if (target.noteId !== undefined) {
      note = store.notes.get(target.noteId)
      if (!note || note.issue_id !== issue.id) throw recordNotFound()
    }
    const table = note ? store.awardEmoji.notes : store.awardEmoji.issues
    const ownerId = note ? note.id : issue.id
    const readable = () =>
      deps.issues.canReadIssue(actor, target.project, issue) &&
      (!note || note.internal === 0 || canReadInternalNotes(deps, actor, target.project))
    return { issue, note, table, ownerId, readable }
  }

  const present = (row: AwardRow, ownerId: number, note: NoteRow | undefined): AwardEmoji => {
    const user = store.users.get(row.user_id)
    if (!user) throw new Error(`award ${row.id}: user ${row.user_id} is missing`)
    return {
      id: row.id,
      name: row.name,
      user: presentUser(user, instance),
      created_at: row.created_at,
      updated_at: row.created_at,
      awardable_id: ownerId,
      awardable_type: note ? 'Note' : 'Issue',
      url: null,
    }
  }

  const readable = (actor: Actor, target: Awardable) => {
    const found = resolve(actor, target)
    if (!found.readable()) throw notFound('Award Emoji')
    return found
  }

  /**
   * An award's write in one transaction, told to the caches as a write to its issue alone: an issue's
   * awards move its `upvotes`/`downvotes` columns and its place in `order_by=popularity` and
   * `my_reaction_emoji` lists (which read the awards table, no column: every list of the project is
   * checked); a note's awards show in no issue record and no issue list. Other projects' kept lists stay.
   */
  const awardWrite = <T>(issue: IssueRow, note: NoteRow | undefined, fn: () => T): T =>
    store.changes.issueWrite(
      note
        ? { projectId: issue.project_id, issues: [], onlyColumns: [] }
        : { projectId: issue.project_id, issues: [issue.id] },
      () => store.transaction(fn),
    )

  /** `404 Award Emoji <messages> Not Found`: the model's messages as Ruby's `Array#to_s` prints them. */
  const refused = (messages: string[]) =>
    notFound(`Award Emoji [${messages.map((m) => JSON.stringify(m)).join(', ')}]`)

  return {
    /** `GET .../award_emoji`: every award, oldest first. */
    list(actor: Actor, target: Awardable): AwardEmoji[] {
      const { table, ownerId, note } = readable(actor, target)
      return table.of(ownerId).map((row) => present(row, ownerId, note))
    },

    /** `GET .../award_emoji/:award_id`: `404 Not found` for an award of another awardable. */
    get(actor: Actor, target: Awardable, awardId: number): AwardEmoji {
      const { table, ownerId, note } = readable(actor, target)
      const row = table.get(ownerId, awardId)
      if (!row) throw recordNotFound()
      return present(row, ownerId, note)
    },

    /**
     * `POST .../award_emoji`: `404 Award Emoji Not Found` unless the caller is signed in and may read
     * the issue and award it (`user_can_award?`: no `award_emoji` in an archived project); a system note cannot be awarded; the name as `AwardEmoji`
     * validates it (aliases `+1`/`-1` normalised): unknown or already given by the caller, 404 with
     * the model's messages. A new award marks the caller's pending to-dos on the issue done.
     */
    create(actor: Actor, target: Awardable, rawName: string): AwardEmoji {
      const found = resolve(actor, target)
      const user = actor.user
      if (!user || !found.readable() || !writable(target.project)) throw notFound('Award Emoji')
      const { issue, note, table, ownerId } = found
      if (note?.system === 1) throw notFound('Award Emoji Awardable cannot be awarded emoji')
      const name = normalizeEmojiName(rawName)
      const errors: string[] = []
      if (name.trim() === '') errors.push("Name can't be blank")
      if (!isEmojiName(name)) errors.push('Name is not a valid emoji name')
      else if (table.taken(ownerId, user.id, name)) errors.push('Name has already been taken')
      if (errors.length > 0) throw refused(errors)
      const now = isoNow(deps.ctx.clock)
      const id = awardWrite(issue, note, () => {
        const added = table.add(ownerId, user.id, name, now)
        store.todos.resolveAll(user.id, issue.id, now)
        return added
      })
      return present(table.get(ownerId, id) as AwardRow, ownerId, note)
    },

    /**
     * `DELETE .../award_emoji/:award_id`: the award is found first (`404 Not found`), then only its
     * giver or an administrator may take it back (`401 Unauthorized` for anyone else).
     */
    remove(actor: Actor, target: Awardable, awardId: number): void {
      const { issue, note, table, ownerId } = resolve(actor, target)
      const row = table.get(ownerId, awardId)
      if (!row) throw recordNotFound()
      if (actor.id !== row.user_id && !actor.admin) throw unauthorized()
      awardWrite(issue, note, () => table.remove(ownerId, row.id))
    },
  }
}
export type AwardEmojiService = ReturnType<typeof awardEmojiService>
