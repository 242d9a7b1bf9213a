import { Type, type Static, type TObject } from '@sinclair/typebox'
import type { Access, Actor } from '../services/access.js'
import type { Handled, NoParams, Route, RouteSpec } from './define.js'

/*
 * Path parameters, as the OpenAPI document shows them and handlers read them: an `:id` as given
 * (a number or a URL-encoded full path), integers as numbers; `issueTarget` reads an issue's.
 */
export const IdPath = Type.Object({ id: Type.String() })
/** A commit of a project: its sha, or a ref naming it. */
export const ShaPath = Type.Object({ id: Type.String(), sha: Type.String() })
export const IssuePath = Type.Object({ id: Type.String(), issue_iid: Type.Integer() })
/**
 * An issue's notes: lib/api/notes.rb serves every noteable's notes under `:noteable_id`, the name
 * its messages (`noteable_id is invalid`) and its pagination links give the issue's iid.
 */
export const NoteablePath = Type.Object({ id: Type.String(), noteable_id: Type.Integer() })

/** The issue a route's path names (404 when its project is hidden from the caller). */
export function issueTarget(
  access: Access,
  path: Static<typeof IssuePath>,
  actor: Actor,
): { iid: number; project: ReturnType<Access['project']> } {
  return { iid: path.issue_iid, project: access.project(actor, path.id) }
}

/** The issue a route's path names, resolved for the caller. */
export type IssueTarget = ReturnType<typeof issueTarget>

/**
 * `route` for the routes under `/projects/:id/issues/:issue_iid`: the path is `IssuePath`, and the
 * handler gets the issue it names (its project checked against the caller first).
 */
export function issueRoute(route: Route, access: Access) {
  return <P extends TObject = NoParams>(
    spec: Omit<RouteSpec<P, typeof IssuePath>, 'pathParams'>,
    handler: (h: Handled<Static<P>, Static<typeof IssuePath>>, issue: IssueTarget) => unknown,
  ): void =>
    route({ ...spec, pathParams: IssuePath }, (h) => handler(h, issueTarget(access, h.path, h.actor)))
}
