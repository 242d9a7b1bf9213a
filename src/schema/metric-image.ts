import { Type, type Static } from '@sinclair/typebox'
import { Nullable, Timestamp } from './common.js'

/** spec 2.12, reference §11: an incident's metric image; `file_path` downloads the file from the server. */
export const MetricImage = Type.Object(
  {
    id: Type.Integer(),
    created_at: Timestamp,
    filename: Type.String(),
    file_path: Type.String(),
    url: Nullable(Type.String()),
    url_text: Nullable(Type.String()),
  },
  { title: 'MetricImage' },
)
export type MetricImage = Static<typeof MetricImage>

/** The text fields of an upload (multipart, besides `file`) and of `PUT .../metric_images/:metric_image_id`. */
export const MetricImageFields = Type.Object(
  {
    url: Type.Optional(
      Type.String({ description: 'link to the original graph, http(s), at most 255 characters' }),
    ),
    url_text: Type.Optional(Type.String({ description: 'description of the link, at most 128 characters' })),
  },
  { title: 'MetricImageFields' },
)
export type MetricImageFields = Static<typeof MetricImageFields>
