import {
  cronTimezoneValid,
  cronValid,
  nextRunAt,
  nextTimeFrom,
} from '../../../src/server/domain/cron-schedule.js'

/* The cron lines and zones a pipeline schedule accepts, and `next_run_at` as GitLab aligns it. */

it('accepts the cron syntax GitLab reads with Fugit and refuses the rest', () => {
  for (const cron of [
    '* * * * *',
    ' 0 1 * * * ',
    '*/15 9-17 * * mon-fri',
    '0 0 L * *',
    '0 0 * * 5#2',
    '30 * * * * *',
    '@daily',
  ])
    expect([cron, cronValid(cron)]).toEqual([cron, true])
  for (const cron of [
    '',
    'every day',
    '* * * *',
    '61 * * * *',
    '0 0 1W * *',
    '0 0 ? * *',
    'H * * * *',
    '0 0 30 2 *',
    '0 0 1 1 * 2030',
  ])
    expect([cron, cronValid(cron)]).toEqual([cron, false])
})

it("accepts TZInfo names as spelt and ActiveSupport's names, and refuses offsets and unknown zones", () => {
  for (const zone of [
    'UTC',
    'Etc/UTC',
    'Europe/Paris',
    'America/Argentina/Buenos_Aires',
    'US/Pacific',
    'Pacific Time (US & Canada)',
    'Kyiv',
    "Nuku'alofa",
  ])
    expect([zone, cronTimezoneValid(zone)]).toEqual([zone, true])
  for (const zone of [
    '',
    'utc',
    'europe/paris',
    '+01:00',
    'pacific time (us & canada)',
    'Mars/Olympus',
    'constructor',
  ])
    expect([zone, cronTimezoneValid(zone)]).toEqual([zone, false])
})

it('runs an ActiveSupport zone as its TZInfo zone (Pacific Time (US & Canada) is America/Los_Angeles)', () => {
  const from = new Date('2030-06-30T12:00:00Z')
  // Summer time in Los Angeles (UTC-7); Tokyo has none (UTC+9).
  expect(nextTimeFrom('0 9 * * *', 'Pacific Time (US & Canada)', from).toISOString()).toBe(
    '2030-06-30T16:00:00.000Z',
  )
  expect(nextTimeFrom('0 9 * * *', 'Tokyo', from).toISOString()).toBe('2030-07-01T00:00:00.000Z')
})

it("puts next_run_at on the schedule worker's runs (3-59/10 * * * *) as CronSchedulable does", () => {
  const at = (iso: string) => new Date(iso)
  const next = (cron: string, zone: string, now: string) => nextRunAt(cron, zone, at(now)).toISOString()
  expect(next('0 1 * * *', 'UTC', '2030-01-01T00:00:00Z')).toBe('2030-01-01T01:03:00.000Z')
  // The worker's very next run is kept; a later one the worker also runs at is put off by one run.
  expect(next('3 0 * * *', 'UTC', '2030-01-01T00:00:00Z')).toBe('2030-01-01T00:03:00.000Z')
  expect(next('13 2 * * *', 'UTC', '2030-01-01T00:00:00Z')).toBe('2030-01-01T02:23:00.000Z')
  expect(next('* * * * *', 'UTC', '2030-01-01T00:05:00Z')).toBe('2030-01-01T00:13:00.000Z')
  // 02:30 in Paris in winter is 01:30 UTC.
  expect(next('30 2 * * *', 'Europe/Paris', '2030-01-01T00:00:00Z')).toBe('2030-01-01T01:33:00.000Z')
})
