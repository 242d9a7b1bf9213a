import { Type, type Static } from '@sinclair/typebox'
import { PageQuery } from './common.js'
import { ProtectedRefAccess } from './repository.js'

/*
 * Protected tags (`lib/api/protected_tags.rb`, Maintainer): who may create and delete matching tags.
 */

/** `Entities::ProtectedTag` (`lib/api/entities/protected_tag.rb`): its one create level. */
export const ProtectedTag = Type.Object(
  { name: Type.String(), create_access_levels: Type.Array(ProtectedRefAccess) },
  { title: 'ProtectedTag' },
)
export type ProtectedTag = Static<typeof ProtectedTag>

/** `POST /projects/:id/protected_tags`: `create_access_level` 0, 30, 40 (the default) or 60. */
export const ProtectTag = Type.Object({
  name: Type.String(),
  create_access_level: Type.Optional(
    Type.Integer({ description: '0 (no one), 30 (Developers + Maintainers), 40 (Maintainers), 60 (Admins)' }),
  ),
})
export type ProtectTag = Static<typeof ProtectTag>

export const ProtectedTagQuery = Type.Object({ ...PageQuery.properties })
export type ProtectedTagQuery = Static<typeof ProtectedTagQuery>
