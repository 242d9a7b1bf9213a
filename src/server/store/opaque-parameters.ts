/*
 * Parameters written `+?` instead of `?`. With a bare parameter compared in the WHERE of a statement
 * over two tables or more (a join, or an EXISTS that SQLite turns into one), the SQLite that
 * node:sqlite bundles (3.54) reads the bound value while planning, so every later bind marks the
 * statement expired and the next run prepares it again: about 5 µs more per run, more than the
 * query itself (a by-id probe of an issue with a label filter: 10-13 µs against 1-2 µs). The unary
 * `+` leaves the value as it is (SQLite: "a no-op ... the same value as the operand", no affinity
 * either way) and still lets an index take it as a key, but the planner no longer reads it.
 */

/**
 * `sql` with `+` before every parameter (`?`, `?NNN`, `:name`, `@name`, `$name`) outside string
 * literals, quoted identifiers and comments. Parameters stand only where an expression may, so
 * `+` is always valid before one.
 */
export function opaqueParameters(sql: string): string {
  let out = ''
  let from = 0
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]
    if (c === "'" || c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c
      // A doubled quote inside a literal or identifier is one character of it: the scan resumes
      // at the next quote and goes on.
      i = sql.indexOf(close, i + 1)
      if (i < 0) break
    } else if (c === '-' && sql[i + 1] === '-') {
      i = sql.indexOf('\n', i)
      if (i < 0) break
    } else if (c === '/' && sql[i + 1] === '*') {
      i = sql.indexOf('*/', i + 2)
      if (i < 0) break
      i++
    } else if (c === '?' || ((c === ':' || c === '@' || c === '$') && /[A-Za-z_]/.test(sql[i + 1] ?? ''))) {
      if (sql[i - 1] === '+') continue
      out += `${sql.slice(from, i)}+`
      from = i
    }
  }
  return out + sql.slice(from)
}
