import { Type, type Static } from '@sinclair/typebox'
import { Nullable, PageQuery, Visibility } from './common.js'
import { boolParam, intArrayParam } from './params.js'
import { GroupListQuery } from './list-queries.js'
import { Group } from './namespace.js'

/** One share of a group (`Entities::GroupDetail#shared_with_groups`, `Entities::SharedGroupWithGroup`). */
export const SharedWithGroup = Type.Object(
  {
    group_id: Type.Integer(),
    group_name: Type.String(),
    group_full_path: Type.String(),
    group_access_level: Type.Integer(),
    expires_at: Nullable(Type.String({ description: 'YYYY-MM-DD' })),
  },
  { title: 'SharedWithGroup' },
)
export type SharedWithGroup = Static<typeof SharedWithGroup>

/** `POST`/`PUT /groups`, `GET /groups/:id`: `Entities::GroupDetail`, the group and whom it is shared with. */
export const GroupDetail = Type.Object(
  { ...Group.properties, shared_with_groups: Type.Array(SharedWithGroup) },
  { title: 'GroupDetail' },
)
export type GroupDetail = Static<typeof GroupDetail>

/** `POST /groups` (lib/api/groups.rb): `name` and `path` required, `parent_id` for a subgroup. */
export const GroupCreate = Type.Object(
  {
    name: Type.String(),
    path: Type.String(),
    parent_id: Type.Optional(Type.Integer()),
    visibility: Type.Optional(Visibility),
    description: Type.Optional(Type.String()),
  },
  { title: 'GroupCreate' },
)
export type GroupCreate = Static<typeof GroupCreate>

/** `PUT /groups/:id`: what changes, the rest stays. */
export const GroupUpdate = Type.Object(
  {
    name: Type.Optional(Type.String()),
    path: Type.Optional(Type.String()),
    visibility: Type.Optional(Visibility),
    description: Type.Optional(Type.String()),
  },
  { title: 'GroupUpdate' },
)
export type GroupUpdate = Static<typeof GroupUpdate>

/** `DELETE /groups/:id`: a subgroup marked for deletion is removed at once with its full path. */
export const GroupDeleteQuery = Type.Object(
  {
    permanently_remove: Type.Optional(boolParam({ default: false })),
    full_path: Type.Optional(Type.String()),
  },
  { title: 'GroupDeleteQuery' },
)
export type GroupDeleteQuery = Static<typeof GroupDeleteQuery>

/** `POST /groups/:id/transfer`: the new parent, none for top level. */
export const GroupTransfer = Type.Object(
  { group_id: Type.Optional(Type.Integer()) },
  { title: 'GroupTransfer' },
)
export type GroupTransfer = Static<typeof GroupTransfer>

/** `POST /groups/:id/share`: with which group, up to which access level, until when. */
export const GroupShare = Type.Object(
  {
    group_id: Type.Integer(),
    group_access: Type.Integer({ description: 'an access level: 10, 15, 20, 30, 40 or 50' }),
    expires_at: Type.Optional(Type.String({ description: 'YYYY-MM-DD' })),
  },
  { title: 'GroupShare' },
)
export type GroupShare = Static<typeof GroupShare>

/**
 * `GET /groups` and `GET /groups/:id/subgroups`, `/descendant_groups` (lib/api/groups.rb
 * `group_list_params`): the group list's filters with `skip_groups` and `min_access_level`.
 */
export const GroupTreeQuery = Type.Object(
  {
    ...GroupListQuery.properties,
    skip_groups: Type.Optional(intArrayParam()),
    min_access_level: Type.Optional(Type.Integer()),
  },
  { title: 'GroupTreeQuery' },
)
export type GroupTreeQuery = Static<typeof GroupTreeQuery>

/** `Entities::PublicGroupDetails`: a group as `GET /groups/:id/transfer_locations` lists it. */
export const PublicGroupDetails = Type.Object(
  {
    id: Type.Integer(),
    web_url: Type.String(),
    name: Type.String(),
    avatar_url: Nullable(Type.String()),
    full_name: Type.String(),
    full_path: Type.String(),
  },
  { title: 'PublicGroupDetails' },
)
export type PublicGroupDetails = Static<typeof PublicGroupDetails>

/** `GET /groups/:id/transfer_locations`: `search` by name or path, offset pages. */
export const TransferLocationsQuery = Type.Object(
  { ...PageQuery.properties, search: Type.Optional(Type.String()) },
  { title: 'TransferLocationsQuery' },
)
export type TransferLocationsQuery = Static<typeof TransferLocationsQuery>
