import { Type, type Static, type TSchema } from '@sinclair/typebox'

/** `T` or JSON `null`. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])

/** ISO 8601 UTC timestamp with milliseconds, e.g. `2026-11-02T10:00:00.000Z`. */
export const Timestamp = Type.String({ description: 'ISO 8601 UTC timestamp with milliseconds' })
/** A calendar date, `YYYY-MM-DD`. */
export const DateString = Type.String({ description: 'YYYY-MM-DD' })

/** A project or group, by numeric id or full path (`acme/widgets`); the client encodes paths. */
export const ResourceRef = Type.Union([Type.Integer(), Type.String()])
export type ResourceRef = Static<typeof ResourceRef>

export const Visibility = Type.Union([
  Type.Literal('private'),
  Type.Literal('internal'),
  Type.Literal('public'),
])
export type Visibility = Static<typeof Visibility>

/** Role names as the seed file spells them, with GitLab's numeric access levels in `accessLevels`. */
export const Role = Type.Union([
  Type.Literal('guest'),
  Type.Literal('planner'),
  Type.Literal('reporter'),
  Type.Literal('developer'),
  Type.Literal('maintainer'),
  Type.Literal('owner'),
])
export type Role = Static<typeof Role>
export const accessLevels: Record<Role, number> = {
  guest: 10,
  planner: 15,
  reporter: 20,
  developer: 30,
  maintainer: 40,
  owner: 50,
}

/** `Entities::UserBasic` (`lib/api/entities/user_basic.rb`): the user object embedded in other records. */
export const UserBasic = Type.Object(
  {
    id: Type.Integer(),
    username: Type.String(),
    public_email: Nullable(Type.String()),
    name: Type.String(),
    state: Type.String({ description: 'active, blocked, ...' }),
    locked: Type.Boolean(),
    avatar_url: Nullable(Type.String()),
    web_url: Type.String(),
  },
  { title: 'UserBasic' },
)
export type UserBasic = Static<typeof UserBasic>

/**
 * GitLab's error bodies (`lib/api/helpers.rb`, `lib/api/api.rb`): Grape validation uses `error`, everything
 * else `message`.
 */
export const ErrorBody = Type.Union(
  [
    Type.Object({ error: Type.String(), error_description: Type.Optional(Type.String()) }),
    Type.Object({ message: Type.Unknown() }),
  ],
  { title: 'Error' },
)
export type ErrorBody = Static<typeof ErrorBody>

/**
 * Offset pagination parameters (`lib/api/helpers/pagination_params.rb`); per_page above 100 is capped, not
 * refused.
 */
export const PageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ default: 1 })),
  per_page: Type.Optional(Type.Integer({ default: 20 })),
})
export type PageQuery = Static<typeof PageQuery>

/**
 * Keyset pagination parameters, where an endpoint supports them (`lib/api/helpers/pagination_strategies.rb`).
 */
export const KeysetQuery = Type.Object({
  pagination: Type.Optional(Type.Union([Type.Literal('keyset'), Type.Literal('offset')])),
  cursor: Type.Optional(Type.String()),
})
export type KeysetQuery = Static<typeof KeysetQuery>

/** The wire values of a literal union schema, so that enums are never written twice. */
export function literals<T extends string>(schema: { anyOf: { const: T }[] }): T[] {
  return schema.anyOf.map((s) => s.const)
}
