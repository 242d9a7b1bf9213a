import { html, type Html } from './html.js'
import { paragraphs } from './text.js'

/** Inline `code` spans; everything else stays text (no links, images or HTML from a repository). */
const inline = (text: string): Html =>
  html`${text.split(/(`[^`\n]+`)/).map((part, n) => (n % 2 === 1 ? html`<code>${part.slice(1, -1)}</code>` : part))}`

/**
 * A README's Markdown, minimally and safely: headings (all `h3`, under the page's `h2`), fenced code
 * blocks, `-`/`*`/`1.` list items, paragraphs and inline code. Raw HTML, links and images are shown as
 * the text they are: the page runs and loads nothing a repository holds. GitLab renders full GFM
 * (`Banzai`); this is the part that reads well without it.
 */
export function markdown(source: string): Html {
  const out: Html[] = []
  const lines = source.replace(/\r\n?/g, '\n').split('\n')
  let para: string[] = []
  let list: string[] = []
  const flush = () => {
    if (para.length > 0) out.push(html`<p>${inline(para.join(' '))}</p>`)
    if (list.length > 0)
      out.push(
        html`<ul>
          ${list.map((item) => html`<li>${inline(item)}</li>`)}
        </ul>`,
      )
    para = []
    list = []
  }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    const fence = /^\s*(```|~~~)/.exec(line)
    if (fence) {
      flush()
      const code: string[] = []
      while (++i < lines.length && !lines[i]!.trimStart().startsWith(fence[1]!)) code.push(lines[i]!)
      out.push(html`<pre><code>${code.join('\n')}</code></pre>`)
      continue
    }
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    const item = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line)
    if (heading) {
      flush()
      out.push(html`<h3>${inline(heading[1]!)}</h3>`)
    } else if (item) {
      if (para.length > 0) flush()
      list.push(item[1]!)
    } else if (line.trim() === '') flush()
    else {
      if (list.length > 0) flush()
      para.push(line.trim())
    }
  }
  flush()
  return html`${out}`
}

/** A README by its name: Markdown through `markdown`, anything else as escaped paragraphs. */
export const readme = (name: string, text: string): Html =>
  /\.(md|markdown|mdown|mkd)$/i.test(name) ? markdown(text) : paragraphs(text)
