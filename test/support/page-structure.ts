import type { Page } from 'playwright-core'

/**
 * What every page must have: `lang`, one banner, main and footer landmark, one `h1`, heading levels
 * that never skip one going down, a name on each navigation, a label for each form control.
 */
export async function checkStructure(page: Page): Promise<void> {
  expect(await page.locator('html').getAttribute('lang')).toBe('en')
  for (const role of ['banner', 'main', 'contentinfo'] as const)
    expect(await page.getByRole(role).count()).toBe(1)
  const levels = await page
    .locator('h1, h2, h3, h4, h5, h6')
    .evaluateAll((hs) => hs.map((h) => Number(h.tagName[1])))
  expect(levels[0]).toBe(1)
  expect(levels.filter((l) => l === 1)).toHaveLength(1)
  levels.forEach((level, n) => expect(level - (levels[n - 1] ?? 0)).toBeLessThanOrEqual(1))
  for (const nav of await page.locator('nav').all()) expect(await nav.getAttribute('aria-label')).toBeTruthy()
  for (const control of await page.locator('input:not([type=hidden]), select, textarea').all()) {
    const id = await control.getAttribute('id')
    expect(await page.locator(`label[for="${id}"]`).count()).toBe(1)
  }
}
