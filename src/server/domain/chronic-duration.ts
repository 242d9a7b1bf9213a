/*
 * GitLab's time-tracking durations (`lib/gitlab/time_tracking_formatter.rb`,
 * `lib/gitlab/chronic_duration.rb`): `Gitlab::TimeTrackingFormatter` over GitLab's vendored `ChronicDuration`
 * (gitlab-chronic-duration 0.12), with GitLab's settings: 8-hour days, 20-day months, so a week (a quarter
 * month) is 5 days, and a year is 31,557,600 s (365.25 days); and, for CI keywords (`parseCiDuration`),
 * the gem's own defaults. Written from the documented behaviour, not translated.
 */

const MINUTE = 60
const HOUR = 60 * MINUTE
const HOURS_PER_DAY = 8
const DAYS_PER_MONTH = 20
const FULL_WEEKS_PER_MONTH = 4
const DAYS_PER_WEEK = DAYS_PER_MONTH / FULL_WEEKS_PER_MONTH
const DAY = HOURS_PER_DAY * HOUR
const WEEK = DAYS_PER_WEEK * DAY
const MONTH = DAYS_PER_MONTH * DAY
const YEAR = 31_557_600

/** Units from smallest to largest: a bare number after a unit takes the next smaller one. */
const UNITS = ['seconds', 'minutes', 'hours', 'days', 'weeks', 'months', 'years'] as const
type Unit = (typeof UNITS)[number]

const SECONDS_PER: Record<Unit, number> = {
  seconds: 1,
  minutes: MINUTE,
  hours: HOUR,
  days: DAY,
  weeks: WEEK,
  months: MONTH,
  years: YEAR,
}

/** The gem's defaults (CI durations): 24-hour days, 30-day months, weeks of `30 / 4` whole days. */
const CI_DAY = 24 * HOUR
const CI_SECONDS_PER: Record<Unit, number> = {
  ...SECONDS_PER,
  days: CI_DAY,
  weeks: Math.floor(30 / FULL_WEEKS_PER_MONTH) * CI_DAY,
  months: 30 * CI_DAY,
}

/** The words ChronicDuration knows; every other word is dropped. GitLab's list has no `mon`/`mons`. */
const WORDS: Record<string, Unit> = {
  seconds: 'seconds',
  second: 'seconds',
  secs: 'seconds',
  sec: 'seconds',
  s: 'seconds',
  minutes: 'minutes',
  minute: 'minutes',
  mins: 'minutes',
  min: 'minutes',
  m: 'minutes',
  hours: 'hours',
  hour: 'hours',
  hrs: 'hours',
  hr: 'hours',
  h: 'hours',
  days: 'days',
  day: 'days',
  dy: 'days',
  d: 'days',
  weeks: 'weeks',
  week: 'weeks',
  wks: 'weeks',
  wk: 'weeks',
  w: 'weeks',
  months: 'months',
  month: 'months',
  mos: 'months',
  mo: 'months',
  years: 'years',
  year: 'years',
  yrs: 'years',
  yr: 'years',
  y: 'years',
}

const NUMBER = /[0-9]*\.?[0-9]+/
const NUMBERS = /[0-9]*\.?[0-9]+/g
/** `3:30`, `1:02:03`, up to six fields; Ruby's `^`/`$` are line anchors, hence `m`. */
const CHRONO = /^[0-9]+:[0-9]+(:[0-9]+){0,4}(\.[0-9]*)?$/m
/** The units of the chrono form, from the right: weeks are skipped. */
const CHRONO_UNITS: Unit[] = ['seconds', 'minutes', 'hours', 'days', 'months', 'years']

const isUnit = (word: string | undefined): word is Unit => word !== undefined && word in SECONDS_PER

/** `3:41:59` -> `3 hours 41 minutes 59 seconds`; other text unchanged. */
function expandChrono(text: string): string {
  const compact = text.replaceAll(' ', '')
  if (!CHRONO.test(compact)) return text
  const fields = compact.split(':').reverse()
  return fields
    .map((value, i) => `${value} ${CHRONO_UNITS[i]}`)
    .reverse()
    .join(' ')
}

/** Lower-cases, spaces the numbers out, keeps numbers and known unit words (mapped to `Unit`). */
function tokenize(text: string): string[] {
  const spaced = expandChrono(text.toLowerCase()).replace(NUMBERS, (n) => ` ${n} `)
  const words: string[] = []
  for (const word of spaced.split(/[\t\n\v\f\r ]+/)) {
    if (word === '') continue
    if (NUMBER.test(word)) {
      words.push(word)
      continue
    }
    const unit = WORDS[word.replace(/^,/, '').replace(/,$/, '')]
    if (unit) words.push(unit)
  }
  // `day`, `minute 30 sec`: a leading unit counts as one of it.
  if (isUnit(words[0])) words.unshift('1')
  return words
}

function sumWords(words: string[], per: Record<Unit, number>, bare: Unit): number {
  let total = 0
  let lastUnit: Unit | undefined
  words.forEach((word, i) => {
    if (!NUMBER.test(word)) return
    const next = words[i + 1]
    let unit: Unit
    if (isUnit(next)) {
      unit = next
      lastUnit = next
    } else if (lastUnit) {
      unit = UNITS[Math.max(0, UNITS.indexOf(lastUnit) - 1)] ?? 'seconds'
      lastUnit = unit
    } else {
      unit = bare
    }
    total += Number.parseFloat(word) * per[unit]
  })
  return total
}

/** Options of `parseDuration`. */
export interface ParseDurationOptions {
  /** Return 0 for a zero duration instead of null (GitLab's `keep_zero`, used for estimates). */
  keepZero?: boolean
}

/**
 * Parses a GitLab time-tracking duration into seconds (`TimeTrackingFormatter.parse`):
 * `3h 30m` -> 12600, `1w` -> 144000, `2` -> 7200 (bare numbers are hours), `1h 30` -> 5400,
 * `3:30` -> 210, `-1h` -> -3600. Unknown words are dropped. Text with no number and no unit word
 * (`foo`, `''`) gives null; a zero result gives null, or 0 with `keepZero`. Never throws.
 *
 * Like ChronicDuration, fractions of a second survive (`1.5s` -> 1.5); GitLab's integer columns
 * then truncate, so callers that store seconds should `Math.trunc` the result.
 */
export function parseDuration(text: string, options: ParseDurationOptions = {}): number | null {
  return parseWith(text, SECONDS_PER, 'hours', options.keepZero === true)
}

/**
 * `ChronicDuration.parse` with the gem's own settings, as CI keywords read durations
 * (`Gitlab::Ci::Build::DurationParser`, `environment:auto_stop_in`): 24-hour days, 7-day weeks, 30-day
 * months, bare numbers in seconds. `1 day` -> 86400, `2 hours 30 minutes` -> 9000, `90` -> 90; null for
 * text with no duration in it (`never`, `soon`) and for zero.
 */
export function parseCiDuration(text: string): number | null {
  return parseWith(text, CI_SECONDS_PER, 'seconds', false)
}

function parseWith(text: string, per: Record<Unit, number>, bare: Unit, keepZero: boolean): number | null {
  const negative = text.startsWith('-')
  const words = tokenize(negative ? text.slice(1) : text)
  if (words.length === 0) return null // nothing to read: null even with keepZero (GitLab: `foo`)
  const total = sumWords(words, per, bare)
  if (!Number.isFinite(total)) return null
  if (total === 0 && !keepZero) return null
  return negative && total !== 0 ? -total : total
}

/** Options of `formatDuration`. */
export interface FormatDurationOptions {
  /** GitLab's `time_tracking_limit_to_hours` instance setting: never roll hours into days (`40h`). */
  limitToHours?: boolean
}

/** Digits after the point of a fractional number, as Ruby's `Float#to_s` shows them. */
const decimals = (n: number) => (Number.isInteger(n) ? 0 : (String(n).split('.')[1]?.length ?? 0))

/**
 * GitLab's short human form of a duration in seconds (`TimeTrackingFormatter.output`):
 * parts `y mo w d h m s`, zero parts left out, joined by single spaces: 12600 -> `3h 30m`,
 * 201600 -> `1w 2d`, 1080000 -> `3w 1h`; four weeks or more roll into 20-day months; from a year
 * (31,557,600 s) up, when that leaves less over than months would, years and months without weeks.
 * Negative values get a `-` prefix. 0 gives `''`: GitLab shows null there, which is the caller's job.
 */
export function formatDuration(seconds: number, options: FormatDurationOptions = {}): string {
  if (seconds < 0 && Math.trunc(seconds) < 0) return `-${formatDuration(-seconds, options)}`
  const places = decimals(seconds)
  let [years, months, weeks, days, hours, minutes, rest] = [0, 0, 0, 0, 0, 0, seconds]
  if (seconds >= YEAR && seconds % YEAR < seconds % MONTH) {
    years = Math.floor(seconds / YEAR)
    months = Math.floor((seconds % YEAR) / MONTH)
    days = Math.floor(((seconds % YEAR) % MONTH) / DAY)
    hours = Math.floor((((seconds % YEAR) % MONTH) % DAY) / HOUR)
    minutes = Math.floor(((((seconds % YEAR) % MONTH) % DAY) % HOUR) / MINUTE)
    rest = ((((seconds % YEAR) % MONTH) % DAY) % HOUR) % MINUTE
  } else if (seconds >= MINUTE) {
    minutes = Math.floor(seconds / MINUTE)
    rest = seconds % MINUTE
    if (minutes >= 60) {
      hours = Math.floor(minutes / 60)
      minutes %= 60
      if (!options.limitToHours && hours >= HOURS_PER_DAY) {
        days = Math.floor(hours / HOURS_PER_DAY)
        hours %= HOURS_PER_DAY
        if (days >= DAYS_PER_WEEK) {
          weeks = Math.floor(days / DAYS_PER_WEEK)
          days %= DAYS_PER_WEEK
          if (weeks >= FULL_WEEKS_PER_MONTH) {
            months = Math.floor(weeks / FULL_WEEKS_PER_MONTH)
            weeks %= FULL_WEEKS_PER_MONTH
          }
        }
      }
    }
  }
  // Only the parts shown are written (time tracking formats on every read and write of its stats).
  const parts: string[] = []
  if (years !== 0) parts.push(`${years}y`)
  if (months !== 0) parts.push(`${months}mo`)
  if (weeks !== 0) parts.push(`${weeks}w`)
  if (days !== 0) parts.push(`${days}d`)
  if (hours !== 0) parts.push(`${hours}h`)
  if (minutes !== 0) parts.push(`${minutes}m`)
  if (rest !== 0) parts.push(`${Number.isInteger(rest) ? String(rest) : rest.toFixed(places)}s`)
  return parts.join(' ')
}
