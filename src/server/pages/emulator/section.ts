import type { Services } from '../../services/index.js'
import type { Html } from '../html.js'
import type { PageContext } from '../layout.js'

/** What a section of the emulator page is given: the page's context, the services, the query. */
export interface SectionInput {
  ctx: PageContext
  services: Services
  query: Record<string, unknown>
}

/**
 * One section of `/-/emulator`: a heading (`h2`, its `id` the anchor) and its content. A new part
 * of the emulator (the request log, faults, hooks) is one more module exporting one of these,
 * listed in `sections.ts`.
 */
export interface EmulatorSection {
  id: string
  title: string
  render(input: SectionInput): Html
}
