import type { FastifyRequest } from 'fastify'
import { pageOf, setPageHeaders } from '../pagination.js'
import type { ApiContext } from './context.js'
import type { Handled } from './define.js'

/** One page of an in-memory list with GitLab's offset headers; the query carries `page`/`per_page`. */
export function sendArrayPage<T>(api: ApiContext, h: Handled<unknown, unknown>, items: T[]): T[] {
  const q = h.req.query as Record<string, unknown>
  const num = (v: unknown) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined)
  const page = pageOf({ page: num(q.page), per_page: num(q.per_page) })
  const link = { baseUrl: api.instance.baseUrl, path: pathOf(h.req), params: { ...q } }
  setPageHeaders(h.reply, link, page, items.length)
  return items.slice(page.offset, page.offset + page.perPage)
}

/** The request path without its query. */
export const pathOf = (req: FastifyRequest) => req.url.split('?')[0] as string
