/*
 * Job summary building blocks. Everything that came from GitLab or GitHub (names, titles, URLs,
 * error messages) goes through `escapeHtml` here, unlike the toolkit's `summary.wrap()`,
 * which does not escape. The builders return HTML strings; an action joins them and hands them to
 * `io.summary` once.
 */

const ENTITIES: Record<string, string> = {
  '&': '&#38;',
  '<': '&#60;',
  '>': '&#62;',
  '"': '&#34;',
  "'": '&#39;',
}

/**
 * Maps each of `& < > " '` to its numeric entity, and the `[` of `##[` too: no line of the
 * summary holds the runner's older command form (see server-text.ts), whatever a server wrote.
 */
export const escapeHtml = (text: unknown): string =>
  String(text ?? '')
    .replace(/[&<>"']/g, (c) => ENTITIES[c] as string)
    .replaceAll('##[', '##&#91;')

/** A piece of HTML that is already safe (built by the helpers below); plain strings get escaped. */
export class Html {
  constructor(readonly html: string) {}
  toString() {
    return this.html
  }
}
export type Cell = string | number | boolean | null | undefined | Html
const render = (cell: Cell) => (cell instanceof Html ? cell.html : escapeHtml(cell))

/** `<h2>` (or another level) with escaped text. */
export const heading = (text: string, level = 2) => new Html(`<h${level}>${escapeHtml(text)}</h${level}>`)

/** A paragraph of cells (escaped unless already Html), joined by spaces. */
export const para = (...cells: Cell[]) => new Html(`<p>${cells.map(render).join(' ')}</p>`)

/** `<code>` with escaped text. */
export const code = (text: Cell) => new Html(`<code>${render(text)}</code>`)

/**
 * A link; `href` must be http(s) (anything else, such as `javascript:`, renders as plain text),
 * and both the text and the address are escaped.
 */
export function link(text: Cell, href: string | null | undefined): Html {
  if (!href || !/^https?:\/\//i.test(href)) return new Html(render(text))
  return new Html(`<a href="${escapeHtml(href)}">${render(text)}</a>`)
}

/** A table with a header row; every cell escaped unless Html. */
export function table(headers: string[], rows: Cell[][]): Html {
  const head = `<tr>${headers.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>`
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${render(c)}</td>`).join('')}</tr>`).join('')
  return new Html(`<table>${head}${body}</table>`)
}

/** A two-column table of name/value pairs, skipping undefined values. */
export const facts = (pairs: [string, Cell][]) =>
  new Html(
    `<table>${pairs
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${render(v)}</td></tr>`)
      .join('')}</table>`,
  )

/** `<pre>` of lines, each escaped (a log's text). */
export const pre = (lines: readonly string[]) => new Html(`<pre>${lines.map(escapeHtml).join('\n')}</pre>`)

/** A nested list: each item is a cell and its own sub-items (none: a leaf). */
export interface ListItem {
  cell: Cell
  items?: ListItem[]
}
export const bullets = (items: readonly ListItem[]): Html =>
  new Html(
    `<ul>${items.map((i) => `<li>${render(i.cell)}${i.items?.length ? bullets(i.items).html : ''}</li>`).join('')}</ul>`,
  )

/** `<details>` with an escaped summary line. */
export const details = (summary: string, inner: Html) =>
  new Html(`<details><summary>${escapeHtml(summary)}</summary>${inner.html}</details>`)

/** Joins parts into the HTML handed to `io.summary`. */
export const join = (...parts: (Html | undefined | false)[]) =>
  parts
    .filter((p): p is Html => p instanceof Html)
    .map((p) => p.html)
    .join('\n')
