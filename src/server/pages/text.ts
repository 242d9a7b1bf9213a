import { html, type Html } from './html.js'

/**
 * Text someone wrote (a description, a note) as escaped paragraphs: blank lines part paragraphs,
 * single line breaks stay `<br>`. No Markdown and never the text's own markup: a page shows what
 * the store holds, not what it would run.
 */
export function paragraphs(text: string | null | undefined): Html {
  const blocks = (text ?? '')
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((block) => block.trim())
    .filter((block) => block !== '')
  return html`${blocks.map((block) => {
    const lines = block.split('\n')
    return html`<p>${lines.map((line, n) => (n === 0 ? line : html`<br />${line}`))}</p>`
  })}`
}
