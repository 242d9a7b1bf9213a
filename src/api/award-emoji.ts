/*
 * Award emoji on issues and on their notes (`lib/api/award_emoji.rb`). An issue's `thumbsup` and
 * `thumbsdown` awards are its `upvotes` and `downvotes`.
 */
import { AwardEmoji } from '../schema/award-emoji.js'
import type { ResourceRef } from '../schema/common.js'
import type { CallOptions, Http } from './http.js'
import type { PageOptions } from './paginate.js'
import { path } from './path.js'

/** What an award call names: an issue, or one of its notes. */
export interface AwardTarget {
  project: ResourceRef
  iid: number
  noteId?: number
}

/** The award emoji group of the client. Every call throws GitLabApiError with GitLab's status and body. */
export function awardEmoji(http: Http) {
  const base = (t: AwardTarget) =>
    t.noteId === undefined
      ? path`/projects/${t.project}/issues/${t.iid}/award_emoji`
      : path`/projects/${t.project}/issues/${t.iid}/notes/${t.noteId}/award_emoji`
  return {
    /** `GET .../award_emoji`, lazily, 100 per page, oldest first. */
    list: (target: AwardTarget, options: Omit<PageOptions, 'item'> = {}) =>
      http.paginate<AwardEmoji>(base(target), { ...options, item: AwardEmoji }),
    /** `GET .../award_emoji/:award_id`. */
    get: (target: AwardTarget, awardId: number, options: CallOptions = {}) =>
      http.request('GET', `${base(target)}/${awardId}`, { ...options, response: AwardEmoji }),
    /**
     * `POST .../award_emoji` -> 201 with the award (`+1`/`-1` become `thumbsup`/`thumbsdown`). GitLab
     * answers 404 for an unknown name, one the caller gave already (`404 Award Emoji ["Name has already
     * been taken"] Not Found`), a system note, or an issue the caller may not read. Retried only on 429.
     */
    award: (target: AwardTarget, name: string, options: CallOptions = {}) =>
      http.request('POST', base(target), { ...options, json: { name }, response: AwardEmoji }),
    /** `DELETE .../award_emoji/:award_id` -> 204; 401 unless the caller gave it or is an administrator. */
    remove: (target: AwardTarget, awardId: number, options: CallOptions = {}) =>
      http.request<void>('DELETE', `${base(target)}/${awardId}`, options),
  }
}
/** The type of `client.awardEmoji`. */
export type AwardEmojiApi = ReturnType<typeof awardEmoji>
