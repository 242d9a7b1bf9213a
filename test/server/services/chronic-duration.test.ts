import {
  formatDuration,
  parseCiDuration,
  parseDuration,
} from '../../../src/server/domain/chronic-duration.js'

const HOUR = 3600
const DAY = 8 * HOUR
const WEEK = 5 * DAY
const MONTH = 20 * DAY

describe('parseDuration (GitLab settings: 8h days, 5d weeks, 20d months)', () => {
  it.each<[string, number]>([
    ['3h 30m', 12_600],
    ['3h30m', 12_600],
    ['1h', HOUR],
    ['1w', 144_000],
    ['1d', 28_800],
    ['1mo', 576_000],
    ['1y', 31_557_600],
    ['3w1h', 3 * WEEK + HOUR],
    ['1w 2d', 201_600],
    ['2', 2 * HOUR], // a bare number is hours
    ['1.5', 5400],
    ['1h 30', 5400], // a bare number after a unit takes the next smaller unit
    ['1d 2 3', DAY + 2 * HOUR + 3 * 60],
    ['1s 5', 6], // seconds stay seconds
    ['2 3', 5 * HOUR], // no unit yet: both default to hours
    ['3:30', 210], // chrono form: minutes:seconds
    ['1:02:03', 3723],
    ['3 : 30', 210],
    ['30 seconds', 30],
    ['5 secs', 5],
    ['1 sec', 1],
    ['2 minutes', 120],
    ['2 mins', 120],
    ['1 minute', 60],
    ['1min', 60],
    ['2 hours', 2 * HOUR],
    ['2 hrs', 2 * HOUR],
    ['1 hr', HOUR],
    ['2 days', 2 * DAY],
    ['1 dy', DAY],
    ['2 weeks', 2 * WEEK],
    ['2 wks', 2 * WEEK],
    ['1 wk', WEEK],
    ['2 months', 2 * MONTH],
    ['2 mos', 2 * MONTH],
    ['2 years', 2 * 31_557_600],
    ['1 yr', 31_557_600],
    ['2 yrs', 2 * 31_557_600],
    ['3H 30M', 12_600], // case-insensitive
    ['day', DAY], // a leading unit counts one
    ['minute 30 sec', 90],
    ['1h, 30m and 5s', HOUR + 1800 + 5], // commas and join words are dropped
    ['about 2h please', 2 * HOUR], // unknown words are dropped
    ['1 mon', HOUR], // GitLab has no `mon`: the word is dropped and 1 is hours
    ['-1h', -HOUR],
    ['-3h 30m', -12_600],
    ['1h -30m', 5400], // only a leading minus negates
    ['0.5s', 0.5], // fractions of a second survive, as in ChronicDuration
  ])('%j -> %j', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds)
  })

  it.each(['', 'foo', '0', '0h', '-0', 'and'])('%j -> null', (text) => {
    expect(parseDuration(text)).toBeNull()
  })

  it('keepZero returns 0 for a zero result, never -0, and still null for text without a number or unit', () => {
    expect(parseDuration('0h', { keepZero: true })).toBe(0)
    expect(parseDuration('0', { keepZero: true })).toBe(0)
    expect(Object.is(parseDuration('-0', { keepZero: true }), 0)).toBe(true)
    expect(parseDuration('foo', { keepZero: true })).toBeNull()
    expect(parseDuration('', { keepZero: true })).toBeNull()
  })

  it('returns null for numbers too large to represent', () => {
    expect(parseDuration('9'.repeat(400))).toBeNull()
  })
})

describe('parseCiDuration (ChronicDuration defaults: 24h days, 7d weeks, 30d months, bare seconds)', () => {
  it.each<[string, number]>([
    ['1 day', 86_400],
    ['2 hours 30 minutes', 9000],
    ['1 week', 7 * 86_400],
    ['1 month', 30 * 86_400],
    ['1 year', 31_557_600],
    ['90', 90],
    ['1h 30', 5400],
    ['1d 12h', 129_600],
  ])('%j -> %d', (text, seconds) => {
    expect(parseCiDuration(text)).toBe(seconds)
  })

  it.each(['never', 'soon', '', '0 days'])('%j -> null', (text) => {
    expect(parseCiDuration(text)).toBeNull()
  })
})

describe('formatDuration (short form, weeks, 20-day months)', () => {
  it.each<[number, string]>([
    [12_600, '3h 30m'],
    [201_600, '1w 2d'],
    [3600, '1h'],
    [144_000, '1w'],
    [3 * WEEK + HOUR, '3w 1h'],
    [28_800, '1d'],
    [59, '59s'],
    [61, '1m 1s'],
    [90.5, '1m 30.5s'],
    [4 * WEEK, '1mo'], // four weeks roll into a month
    [576_000, '1mo'],
    [1_080_000, '1mo 3w 2d 4h'],
    [5 * MONTH + 2 * WEEK, '5mo 2w'],
    [31_557_600, '1y'],
    [31_557_600 + HOUR, '1y 1h'],
    [178_800, '1w 1d 1h 40m'], // GitLab's time_tracking_formatter_spec
    [-178_800, '-1w 1d 1h 40m'],
    [-3600, '-1h'],
    [-12_600, '-3h 30m'],
    [0, ''],
  ])('%j -> %j', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text)
  })

  it('limitToHours never rolls hours into days (time_tracking_limit_to_hours)', () => {
    expect(formatDuration(178_800, { limitToHours: true })).toBe('49h 40m')
    expect(formatDuration(144_000, { limitToHours: true })).toBe('40h')
    expect(formatDuration(12_600, { limitToHours: true })).toBe('3h 30m')
  })

  it.each(['3h 30m', '1w 2d', '3w 1h', '1mo', '2mo 1w 3d 7h 59m 59s', '1y 1h', '-2d'])(
    '%j survives a round trip',
    (text) => {
      expect(formatDuration(parseDuration(text) ?? Number.NaN)).toBe(text)
    },
  )
})
