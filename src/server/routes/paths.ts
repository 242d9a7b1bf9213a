import { Type } from '@sinclair/typebox'
import type { Access, Actor } from '../services/access.js'
import { pathInteger } from '../params.js'
import type { ProjectRow } from '../store/projects.js'

/*
 * Path parameters, as the OpenAPI document shows them. Handlers read them raw (an `:id` is a
 * number or a URL-encoded full path); `issueTarget` reads an issue's.
 */
export const IdPath = Type.Object({ id: Type.String() })
export const IssuePath = Type.Object({ id: Type.String(), issue_iid: Type.Integer() })

/**
 * The issue a route's path names: `:issue_iid` (defineRoute has checked it, as Grape validates
 * before the endpoint runs), then the project (404 when hidden).
 */
export function issueTarget(
  access: Access,
  path: Record<string, string>,
  actor: Actor,
): { iid: number; project: ProjectRow } {
  const iid = pathInteger(path.issue_iid, 'issue_iid')
  return { iid, project: access.project(actor, path.id as string) }
}
