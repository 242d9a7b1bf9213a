/**
 * A real calendar date `YYYY-MM-DD`, or null: a date column GitLab cannot read stays empty
 * (an issue's or a milestone's `due_date`, `app/models/concerns/issuable.rb`, `timebox.rb`).
 */
export function calendarDate(value: string | undefined): string | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null
  const d = new Date(`${value}T00:00:00.000Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value ? value : null
}
