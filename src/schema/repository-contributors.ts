import { Type, type Static } from '@sinclair/typebox'
import { PageQuery } from './common.js'
import { oneOf } from './pipeline.js'

/**
 * `GET /projects/:id/repository/contributors` (`lib/api/repositories.rb`): `Entities::Contributor`
 * and the route's parameters.
 */

/**
 * `Entities::Contributor`: one author email's commits. `additions` and `deletions` are always 0, as
 * GitLab's have been since 13.4 (`Gitlab::Contributor` starts them at 0 and nothing adds to them).
 */
export const Contributor = Type.Object(
  {
    name: Type.String(),
    email: Type.String(),
    commits: Type.Integer(),
    additions: Type.Integer(),
    deletions: Type.Integer(),
  },
  { title: 'Contributor' },
)
export type Contributor = Static<typeof Contributor>

/** `ref` (the default branch if not given), `order_by` (default `commits`), `sort` (default `asc`), pages. */
export const ContributorQuery = Type.Object({
  ref: Type.Optional(Type.String()),
  order_by: Type.Optional(oneOf(['email', 'name', 'commits'], { default: 'commits' })),
  sort: Type.Optional(oneOf(['asc', 'desc'], { default: 'asc' })),
  ...PageQuery.properties,
})
export type ContributorQuery = Static<typeof ContributorQuery>
