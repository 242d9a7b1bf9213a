import { cronTimezoneValid, cronValid, nextRunAt } from '../../../src/server/domain/cron-schedule.js'

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

it('accepts TZInfo names as spelt, and refuses offsets, ActiveSupport names and unknown zones', () => {
  for (const zone of ['UTC', 'Etc/UTC', 'Europe/Paris', 'America/Argentina/Buenos_Aires', 'US/Pacific'])
    expect([zone, cronTimezoneValid(zone)]).toEqual([zone, true])
  for (const zone of ['', 'utc', 'europe/paris', '+01:00', 'Pacific Time (US & Canada)', 'Mars/Olympus'])
    expect([zone, cronTimezoneValid(zone)]).toEqual([zone, false])
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
