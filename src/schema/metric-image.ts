import { Type, type Static } from '@sinclair/typebox'
import { extname } from 'node:path'
import { Nullable, Timestamp } from './common.js'

/**
 * `ee/lib/api/entities/issuable/metric_image.rb`: an incident's metric image; `file_path` downloads the file
 * from the server.
 */
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

/** Image types GitLab accepts for metric images, by extension: the upload's and the download's Content-Type. */
const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.bmp': 'image/bmp',
  '.tiff': 'image/tiff',
  '.ico': 'image/vnd.microsoft.icon',
  '.webp': 'image/webp',
}

/** The Content-Type of a metric image file named `name` (`application/octet-stream` when unknown). */
export const imageType = (name: string): string =>
  IMAGE_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream'
