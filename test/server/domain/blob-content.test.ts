import { contentDisposition, isBinary, rawContentHeaders } from '../../../src/server/domain/blob-content.js'

describe('blob content', () => {
  it('tells binary from text as git does: a NUL, or bytes that are not UTF-8', () => {
    expect(isBinary(Buffer.from('plain ünïcode text\n'))).toBe(false)
    expect(isBinary(Buffer.from([0x61, 0x00, 0x62]))).toBe(true)
    expect(isBinary(Buffer.from([0x61, 0xff, 0x62]))).toBe(true)
    expect(isBinary(Buffer.alloc(0))).toBe(false)
  })

  it("writes Rails' Content-Disposition: an ASCII name without accents, then the UTF-8 name", () => {
    expect(contentDisposition('inline', 'résumé "v2".txt')).toBe(
      `inline; filename="resume %22v2%22.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22v2%22.txt`,
    )
    expect(contentDisposition('attachment', '日本.md')).toBe(
      `attachment; filename="%3F%3F.md"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.md`,
    )
  })

  it('serves HTML and scripts as plain text, SVG and unknown bytes as downloads', () => {
    expect(rawContentHeaders(Buffer.from('<html><script>x</script></html>'), 'a.html').type).toBe(
      'text/plain; charset=utf-8',
    )
    const svg = rawContentHeaders(Buffer.from('<?xml version="1.0"?>\n<svg xmlns="x"></svg>'), 'a.svg')
    expect(svg).toEqual({
      type: 'image/svg+xml',
      disposition: `attachment; filename="a.svg"; filename*=UTF-8''a.svg`,
    })
    expect(rawContentHeaders(Buffer.from('%PDF-1.7\n'), 'a.pdf').type).toBe('application/pdf')
    expect(rawContentHeaders(Buffer.from([1, 2, 0, 3]), 'x').disposition).toMatch(/^attachment;/)
  })
})
