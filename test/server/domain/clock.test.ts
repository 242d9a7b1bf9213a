import { isoNow } from '../../../src/server/domain/clock.js'
import { manualClock } from '../../support/pipeline-seed.js'

/* isoNow keeps the last millisecond's text: it must still follow each clock, to the millisecond. */
describe('isoNow', () => {
  it('follows the clock to the millisecond, one clock after another', () => {
    const a = manualClock('2026-03-01T10:00:00.000Z')
    const b = manualClock('2030-12-31T23:59:59.999Z')
    expect(isoNow(a)).toBe('2026-03-01T10:00:00.000Z')
    expect(isoNow(a)).toBe('2026-03-01T10:00:00.000Z')
    a.advance(1)
    expect(isoNow(a)).toBe('2026-03-01T10:00:00.001Z')
    expect(isoNow(b)).toBe('2030-12-31T23:59:59.999Z')
    expect(isoNow(a)).toBe('2026-03-01T10:00:00.001Z')
    b.advance(1)
    expect(isoNow(b)).toBe('2031-01-01T00:00:00.000Z')
    expect(isoNow({ now: () => new Date(Date.UTC(1969, 11, 31, 23, 59, 59, 999)) })).toBe(
      '1969-12-31T23:59:59.999Z',
    )
  })
})
