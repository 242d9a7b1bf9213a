import { Type, type Static } from '@sinclair/typebox'

/** `Entities::Commit`. Dates carry the commit's own offset (`+00:00` for the server's commits). */
export const Commit = Type.Object(
  {
    id: Type.String(),
    short_id: Type.String(),
    created_at: Type.String(),
    parent_ids: Type.Array(Type.String()),
    title: Type.String(),
    message: Type.String(),
    author_name: Type.String(),
    author_email: Type.String(),
    authored_date: Type.String(),
    committer_name: Type.String(),
    committer_email: Type.String(),
    committed_date: Type.String(),
    trailers: Type.Record(Type.String(), Type.String()),
    extended_trailers: Type.Record(Type.String(), Type.Array(Type.String())),
    web_url: Type.String(),
  },
  { title: 'Commit' },
)
export type Commit = Static<typeof Commit>
