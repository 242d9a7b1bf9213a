import type { MetricImage } from '../../schema/index.js'
import type { MetricImageRow } from '../store/metric-images.js'
import type { Instance } from './context.js'

/** The path (under the base URL's path) where the server hands out a metric image's file. */
export const metricImagePath = (instance: Instance, row: { id: number; filename: string }) =>
  `${new URL(instance.baseUrl).pathname.replace(/\/+$/, '')}/uploads/-/system/issuable_metric_image/file/${row.id}/${encodeURIComponent(row.filename)}`

/** `Entities::IssuableMetricImage` (`ee/lib/api/entities/issuable/metric_image.rb`). */
export function presentMetricImage(instance: Instance, row: MetricImageRow): MetricImage {
  return {
    id: row.id,
    created_at: row.created_at,
    filename: row.filename,
    file_path: metricImagePath(instance, row),
    url: row.url,
    url_text: row.url_text,
  }
}
