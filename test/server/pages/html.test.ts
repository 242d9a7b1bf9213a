import { escapeHtml, html, Html } from '../../../src/server/pages/html.js'
import { paragraphs } from '../../../src/server/pages/text.js'

describe('html', () => {
  it('escapes the five characters that mean something in text and quoted attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
    )
  })

  it('escapes every interpolated value unless it is Html made by the tag', () => {
    const title = '<script>alert(1)</script>'
    const attr = '" onmouseover="alert(2)'
    const out = html`<a title="${attr}">${title}</a>${html`<b>${'&'}</b>`}`
    expect(out).toBeInstanceOf(Html)
    expect(out.text).toBe(
      '<a title="&quot; onmouseover=&quot;alert(2)">&lt;script&gt;alert(1)&lt;/script&gt;</a><b>&amp;</b>',
    )
  })

  it('prints numbers, joins lists, and prints nothing for null, undefined and booleans', () => {
    const items = ['<1>', html`<i>2</i>`, 3]
    expect(html`${items}|${null}|${undefined}|${false}|${true}|${0}`.text).toBe('&lt;1&gt;<i>2</i>3|||||0')
  })

  it('does not treat a string that looks like Html as markup', () => {
    const fake = { text: '<b>x</b>', toString: () => '<b>x</b>' } as unknown as string
    expect(html`${fake}`.text).toBe('&lt;b&gt;x&lt;/b&gt;')
  })
})

describe('paragraphs', () => {
  it('parts paragraphs on blank lines and keeps line breaks, as escaped text', () => {
    expect(paragraphs('one\r\ntwo <b>\n\n\nthree').text).toBe('<p>one<br />two &lt;b&gt;</p><p>three</p>')
  })

  it('is empty for no text', () => {
    expect(paragraphs(null).text).toBe('')
    expect(paragraphs(' \n\n ').text).toBe('')
  })
})
