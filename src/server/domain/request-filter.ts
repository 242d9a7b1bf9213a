import { EmulatorRequestFilter } from '../../schema/emulator-instruments.js'
import { paramError } from '../grape/gitlab-errors.js'
import { parseParams } from '../grape/params.js'
import type { RequestFilter } from './request-ring.js'

const STATUS_FILTER = /^[1-5](\d\d|xx)$/

/**
 * The request log's filters read from a query: `GET /-/emulator/requests`'s and the emulator
 * page's alike. A bad one is GitLab's 400 `{"error":"status does not have a valid value"}`.
 */
export function requestFilter(query: unknown): RequestFilter {
  const filter = parseParams(EmulatorRequestFilter, query)
  if (filter.status !== undefined && !STATUS_FILTER.test(filter.status))
    throw paramError('status does not have a valid value')
  if (filter.limit !== undefined && filter.limit < 1) throw paramError('limit does not have a valid value')
  return filter
}
