/*
 * Ruby's `DateTime.parse`, which reads a Grape `DateTime` parameter (dry-types `params.date_time`),
 * for the forms people and tools write:
 *   - ISO 8601 and its relatives: `2026-01-03T10:00:00.5+05:30`, `2026-1-3 1:02`, `2026/01/03`,
 *     `20260103T101112Z`;
 *   - dotted dates: `2026.01.03`, `03.01.2026` (day first);
 *   - RFC 2822 and HTTP dates (`date -R`, `toUTCString()`), `Jan 3, 2026`, `3rd January 2026`;
 *   - `date`'s default output, `Sat Jan  3 10:00:00 UTC 2026`.
 * Each takes an optional time, 24-hour or with AM/PM, and an optional zone. A time without a zone is
 * UTC, as in Ruby, whatever this machine's zone is. Every form here reads as Ruby reads it; anything
 * else is undefined (Grape's `is invalid`), also where Ruby's heuristics would still find a date
 * (`Jan 3` with no year, `2026-01-03T10Z`, Japanese era dates, zone names besides the US ones).
 */

/** A date-time as `DateTime.parse` reads it. */
export interface RubyDateTime {
  /** The instant, as an ISO string in UTC with milliseconds (what a filter compares with). */
  instant: string
  /** `DateTime#to_s`: seconds without their fraction, and the offset as given (`+00:00` for none). */
  text: string
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']
/** A month name: Ruby takes any word that begins with an abbreviation (`Sept`, `January`). */
const MONTH = String.raw`(${MONTHS.join('|')})[a-z]*\.?`
/** A weekday name, which Ruby reads and `DateTime.parse` then ignores. */
const WEEKDAY = String.raw`(?:(?:sun|mon|tue|wed|thu|fri|sat)[a-z]*\.?,?\s*)?`
/** `10:05`, `1:2:3`, `10:00:00.123`, `10 PM`, `10:00 a.m.`: captures hour, minute, second, fraction, meridian. */
const TIME = String.raw`(\d{1,2})(?::(\d{1,2})(?::(\d{1,2})(?:[.,](\d*))?)?)?(?:\s*([ap])\.?m\.?(?![a-z]))?`
/** `Z`, `UTC`, `GMT+1`, `+05:30`, `+0530`, `-8`, or a US zone: captures it whole. */
const ZONE = String.raw`(?:\s*(z|(?:utc|gmt|ut)(?:[+-]\d{1,2}(?::?\d{2})?)?|[+-]\d{1,2}(?::?\d{2})?|[ecmp][sd]t))?`

/** After a compact time Ruby reads only a zone written against it: `Z`, `+05`, `+0530`. */
const COMPACT_ZONE = String.raw`(z|[+-]\d{2}(?:\d{2})?)?`

type Parts = { year: string; month: string; day: string; time?: (string | undefined)[]; zone?: string }

/** Each form with what its captures are; the time's five captures follow the date's three. */
const FORMS: { re: RegExp; parts: (m: RegExpExecArray) => Parts }[] = [
  {
    // 2026-01-03, 2026/1/3, 2026.01.03, each with an optional time after `T` or blanks.
    re: new RegExp(String.raw`^(\d{4})([-/.])(\d{1,2})\2(\d{1,2})(?:(?:\s*t\s*|\s+)${TIME}${ZONE})?$`),
    parts: (m) => ({ year: m[1]!, month: m[3]!, day: m[4]!, time: m.slice(5, 10), zone: m[10] }),
  },
  {
    // 03.01.2026: day first.
    re: new RegExp(String.raw`^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:\s+${TIME}${ZONE})?$`),
    parts: (m) => ({ year: m[3]!, month: m[2]!, day: m[1]!, time: m.slice(4, 9), zone: m[9] }),
  },
  {
    // 20260103, 20260103T10, 20260103 1011, 20260103T101112.5Z, 20260103T1011+0530.
    re: new RegExp(
      String.raw`^(\d{4})(\d{2})(\d{2})(?:(?:\s*t\s*|\s*)(\d{2})(\d{2})?(?:(\d{2})(?:[.,](\d*))?)?${COMPACT_ZONE})?$`,
    ),
    parts: (m) => ({
      year: m[1]!,
      month: m[2]!,
      day: m[3]!,
      // Two digits of time are the hour alone, which here needs no minutes.
      ...(m[4] !== undefined ? { time: [m[4], m[5] ?? '00', m[6], m[7], undefined] } : {}),
      zone: m[8],
    }),
  },
  {
    // 3 Jan 2026, Sat, 03 Jan 2026 10:00:00 GMT, 3rd January, 2026, 28-Nov-2026.
    re: new RegExp(
      String.raw`^${WEEKDAY}(\d{1,2})(?:st|nd|rd|th)?(?:\s+|-)${MONTH},?(?:\s+|-)(\d{4})(?:\s+${TIME}${ZONE})?$`,
    ),
    parts: (m) => ({ year: m[3]!, month: monthNumber(m[2]!), day: m[1]!, time: m.slice(4, 9), zone: m[9] }),
  },
  {
    // Jan 3 2026, January 3rd, 2026 5:25 pm PST.
    re: new RegExp(
      String.raw`^${WEEKDAY}${MONTH}\s*(\d{1,2})(?:st|nd|rd|th)?(?:,\s*|\s+)(\d{4})(?:\s+${TIME}${ZONE})?$`,
    ),
    parts: (m) => ({ year: m[3]!, month: monthNumber(m[1]!), day: m[2]!, time: m.slice(4, 9), zone: m[9] }),
  },
  {
    // `date`'s default: Sat Jan  3 10:00:00 UTC 2026 (the zone may be left out).
    re: new RegExp(String.raw`^${WEEKDAY}${MONTH}\s*(\d{1,2})\s+${TIME}${ZONE}\s+(\d{4})$`),
    parts: (m) => ({ year: m[9]!, month: monthNumber(m[1]!), day: m[2]!, time: m.slice(3, 8), zone: m[8] }),
  },
]

function monthNumber(name: string): string {
  return String(MONTHS.indexOf(name.slice(0, 3)) + 1)
}

/** Offsets by name (Ruby's zone table, the RFC 2822 names). */
const NAMED_OFFSETS: Record<string, number> = {
  z: 0,
  ut: 0,
  utc: 0,
  gmt: 0,
  est: -5 * 60,
  edt: -4 * 60,
  cst: -6 * 60,
  cdt: -5 * 60,
  mst: -7 * 60,
  mdt: -6 * 60,
  pst: -8 * 60,
  pdt: -7 * 60,
}

/** The zone's offset in minutes; undefined for one outside ±23:59, which Ruby reads otherwise. */
function offsetMinutes(zone: string | undefined): number | undefined {
  if (zone === undefined) return 0
  const named = /^(z|utc|gmt|ut|[ecmp][sd]t)(.*)$/.exec(zone)
  const base = named ? (NAMED_OFFSETS[named[1]!] as number) : 0
  const numeric = named ? named[2]! : zone
  if (numeric === '') return base
  // +5, +05, +0530, +05:30, +5:30
  const m = /^([+-])(?:(\d{1,2})(?::(\d{2}))?|(\d{2})(\d{2}))$/.exec(numeric)
  if (!m) return undefined
  const hours = Number(m[2] ?? m[4])
  const minutes = Number(m[3] ?? m[5] ?? 0)
  if (hours > 23 || minutes > 59) return undefined
  return base + (m[1] === '-' ? -1 : 1) * (hours * 60 + minutes)
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0')

/**
 * Ruby's date parser refuses a string of more than 128 bytes (ArgumentError, since date 3.2.1): a
 * bound on its work, and here on the patterns', which have no two blank runs side by side either.
 */
const MAX_BYTES = 128

/** `DateTime.parse(text)` for the forms above; undefined for anything else and for a date that does not exist. */
export function parseRubyDateTime(input: string): RubyDateTime | undefined {
  if (Buffer.byteLength(input) > MAX_BYTES) return undefined
  const text = input.trim().toLowerCase()
  for (const form of FORMS) {
    const m = form.re.exec(text)
    if (m) return complete(form.parts(m))
  }
  return undefined
}

function complete({ year, month, day, time = [], zone }: Parts): RubyDateTime | undefined {
  const [h, min, sec, fraction, meridian] = time
  // An hour alone is a time only with AM/PM (Ruby reads `T10` after a dashed date as nothing).
  if (h !== undefined && min === undefined && meridian === undefined) return undefined
  const y = Number(year)
  const mon = Number(month)
  const d = Number(day)
  let hour = Number(h ?? 0)
  if (meridian !== undefined) hour = (hour % 12) + (meridian === 'p' ? 12 : 0)
  const minute = Number(min ?? 0)
  const second = Number(sec ?? 0)
  const offset = offsetMinutes(zone)
  if (offset === undefined || hour > 23 || minute > 59 || second > 59) return undefined
  const at = new Date(0)
  at.setUTCFullYear(y, mon - 1, d)
  // A day that does not exist (month 13, February 30) rolls over into another.
  if (at.getUTCMonth() !== mon - 1 || at.getUTCDate() !== d) return undefined
  const ms = Number((fraction ?? '').padEnd(3, '0').slice(0, 3))
  at.setUTCHours(hour, minute - offset, second, ms)
  const sign = offset < 0 ? '-' : '+'
  return {
    instant: at.toISOString(),
    text:
      `${pad(y, 4)}-${pad(mon)}-${pad(d)}T${pad(hour)}:${pad(minute)}:${pad(second)}` +
      `${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`,
  }
}
