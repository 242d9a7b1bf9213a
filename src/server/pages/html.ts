/*
 * HTML built from tagged template literals that escape by default: every interpolated value is
 * text unless it is itself `Html` made by `html`, so nothing read from the store reaches a page
 * as markup. `&`, `<`, `>`, `"` and `'` are escaped, which is enough in text and in quoted
 * attribute values (the only places templates put values).
 */

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Markup that is already safe: made by `html`, never from a string. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text
  }
}

/** What a template may interpolate: text, numbers, markup, lists of them; null, undefined and false print nothing. */
export type Part = Html | string | number | boolean | null | undefined | readonly Part[]

/** `text` with the characters that mean something in HTML escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!)
}

function render(part: Part): string {
  if (part instanceof Html) return part.text
  if (part === null || part === undefined || part === false || part === true) return ''
  if (Array.isArray(part)) return part.map(render).join('')
  return escapeHtml(String(part))
}

/** The tag: the template's literal parts as written, each value escaped (or spliced, for `Html`). */
export function html(strings: TemplateStringsArray, ...values: readonly Part[]): Html {
  let out = strings[0]!
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!
  return new Html(out)
}

/**
 * The middle dot (U+00B7) GitLab's pages part titles and lines with. Interpolated rather than written in
 * a template: the bundle writes a string literal's non-ASCII as an escape but keeps a tagged
 * template's raw text, and serve.cjs must stay ASCII (scripts/one-byte-source.mjs).
 */
export const DOT = '\u00b7'
