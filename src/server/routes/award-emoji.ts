import { Type } from '@sinclair/typebox'
import { AwardEmoji, AwardEmojiCreate, PageQuery } from '../../schema/index.js'
import { pageOf, slicePage } from '../grape/pagination.js'
import type { Awardable } from '../services/award-emoji.js'
import type { Actor } from '../services/access.js'
import type { ApiContext } from './context.js'

/** Grape's Integers (`:issue_iid`, `:note_id`, `:award_id`): anything else is 400 `<name> is invalid`. */
const IssuePath = Type.Object({ id: Type.String(), issue_iid: Type.Integer() })
const NotePath = Type.Object({ id: Type.String(), issue_iid: Type.Integer(), note_id: Type.Integer() })
const IssueAwardPath = Type.Object({ id: Type.String(), issue_iid: Type.Integer(), award_id: Type.Integer() })
const NoteAwardPath = Type.Object({
  id: Type.String(),
  issue_iid: Type.Integer(),
  note_id: Type.Integer(),
  award_id: Type.Integer(),
})

/**
 * Award emoji on issues and their notes (`lib/api/award_emoji.rb`): the same four routes under
 * `.../issues/:issue_iid` and `.../issues/:issue_iid/notes/:note_id`. Reads take anonymous callers
 * (a public issue's awards); awarding answers 404 to them, taking back 401.
 */
export function awardEmojiRoutes(api: ApiContext): void {
  const { route, access } = api
  const { awardEmoji: awards } = api.services
  const target = (actor: Actor, path: { id: string; issue_iid: number; note_id?: number }): Awardable => ({
    project: access.project(actor, path.id),
    iid: path.issue_iid,
    ...(path.note_id === undefined ? {} : { noteId: path.note_id }),
  })

  for (const [base, on, awardPath, what] of [
    ['/api/v4/projects/:id/issues/:issue_iid', IssuePath, IssueAwardPath, 'an issue'],
    ['/api/v4/projects/:id/issues/:issue_iid/notes/:note_id', NotePath, NoteAwardPath, 'a note of an issue'],
  ] as const) {
    route(
      {
        method: 'GET',
        url: `${base}/award_emoji`,
        summary: `List the emoji awarded to ${what}`,
        auth: 'optional',
        pathParams: on,
        input: PageQuery,
        response: { 200: Type.Array(AwardEmoji) },
      },
      (h) => h.sendPage(slicePage(awards.list(h.actor, target(h.actor, h.path)), pageOf(h.params))),
    )

    route(
      {
        method: 'GET',
        url: `${base}/award_emoji/:award_id`,
        summary: `Get one emoji awarded to ${what}`,
        auth: 'optional',
        pathParams: awardPath,
        response: { 200: AwardEmoji },
      },
      (h) => awards.get(h.actor, target(h.actor, h.path), h.path.award_id),
    )

    route(
      {
        method: 'POST',
        url: `${base}/award_emoji`,
        summary: `Award an emoji to ${what}`,
        auth: 'optional',
        pathParams: on,
        input: AwardEmojiCreate,
        response: { 201: AwardEmoji },
      },
      (h) => h.reply.code(201).send(awards.create(h.actor, target(h.actor, h.path), h.params.name)),
    )

    route(
      {
        method: 'DELETE',
        url: `${base}/award_emoji/:award_id`,
        summary: `Take back an emoji awarded to ${what} (its giver or an administrator)`,
        auth: 'optional',
        pathParams: awardPath,
        response: { 204: Type.Null() },
      },
      (h) => {
        awards.remove(h.actor, target(h.actor, h.path), h.path.award_id)
        return h.reply.code(204).send()
      },
    )
  }
}
