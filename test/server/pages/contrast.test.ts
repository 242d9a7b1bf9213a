import { STYLE } from '../../../src/server/pages/layout.js'

/** WCAG 2's relative luminance of `#rgb` or `#rrggbb`. */
function luminance(hex: string): number {
  const full = hex.length === 4 ? hex.replace(/^#(.)(.)(.)$/, '#$1$1$2$2$3$3') : hex
  const [r, g, b] = [1, 3, 5].map((at) => {
    const c = parseInt(full.slice(at, at + 2), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}

describe("the pages' colours", () => {
  it('give every rule with a background and a text colour at least 4.5:1 (WCAG AA)', () => {
    const pairs = [
      ...STYLE.matchAll(/([^{}]+)\{[^}]*background:(#[0-9a-f]{3,6})[^}]*?;color:(#[0-9a-f]{3,6})/g),
    ]
    expect(pairs.length).toBeGreaterThanOrEqual(8)
    const weak = pairs
      .map(([, selector, bg, fg]) => [selector!.trim(), Number(contrast(bg!, fg!).toFixed(2))] as const)
      .filter(([, ratio]) => ratio < 4.5)
    expect(weak).toEqual([])
  })

  it('give text, muted text, links and the banner at least 4.5:1 on their backgrounds', () => {
    expect(contrast('#1f1e24', '#ffffff')).toBeGreaterThanOrEqual(4.5) // body
    expect(contrast('#535158', '#ffffff')).toBeGreaterThanOrEqual(4.5) // .muted
    expect(contrast('#535158', '#fbfafd')).toBeGreaterThanOrEqual(4.5) // a system note's muted text
    expect(contrast('#0b5cad', '#ffffff')).toBeGreaterThanOrEqual(4.5) // links
    expect(contrast('#ffffff', '#2b2838')).toBeGreaterThanOrEqual(4.5) // the banner
    expect(contrast('#ae1800', '#ffffff')).toBeGreaterThanOrEqual(4.5) // errors, the reset button
    for (const colour of ['#1f1e24', '#535158', '#0b5cad', '#2b2838', '#ae1800'])
      expect(STYLE).toContain(colour)
  })
})
