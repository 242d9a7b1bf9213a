import type { EnvironmentBasic } from '../../schema/index.js'
import type { EnvironmentRow } from '../store/environments.js'

/** `Entities::EnvironmentBasic` (`lib/api/entities/environment_basic.rb`), in its key order. */
export const presentEnvironmentBasic = (row: EnvironmentRow): EnvironmentBasic => ({
  id: row.id,
  name: row.name,
  slug: row.slug,
  external_url: row.external_url,
  created_at: row.created_at,
  updated_at: row.updated_at,
})
