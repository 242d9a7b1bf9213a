import type { Instruments } from '../../domain/instruments.js'
import type { Services } from '../../services/index.js'
import { html, type Html } from '../html.js'
import type { PageContext } from '../layout.js'

/** What a section of the emulator page is given: the page's context, the services, the query. */
export interface SectionInput {
  ctx: PageContext
  services: Services
  query: Record<string, unknown>
  /** The request log and the fault rules. */
  instruments: Instruments
  /** A form of the page posted back with its error (a bad fault rule): its section, values and message. */
  refused?: { section: string; values: Record<string, unknown>; error: string }
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

/** A form's hidden `authenticity_token`: every form of the page posts with the session's CSRF token. */
export const csrfField = (ctx: PageContext): Html =>
  html`<input type="hidden" name="authenticity_token" value="${ctx.visitor.csrf ?? ''}" />`

/** A `select`'s options, the one equal to `chosen` (case aside) selected. */
export const options = (values: readonly string[], chosen: string | undefined): Html[] =>
  values.map(
    (v) =>
      html`<option value="${v}" ${v.toUpperCase() === chosen?.toUpperCase() ? html`selected` : null}>
        ${v}
      </option>`,
  )
