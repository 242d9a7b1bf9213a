/**
 * Whether a file's diff (`unifiedDiff`'s hunks) holds a changed line: `type` `new` an added line whose
 * number in the new file is `line`, `old` a removed line whose number in the old file is `line`. Context
 * lines are neither (`Gitlab::Diff::Parser` gives them no type), as the commit comments API matches them.
 */
export function diffHasLine(diff: string, line: number, type: 'new' | 'old'): boolean {
  let oldPos = 0
  let newPos = 0
  for (const text of diff.split('\n')) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text)
    if (hunk) {
      oldPos = Number(hunk[1])
      newPos = Number(hunk[2])
      continue
    }
    if (text.startsWith('+')) {
      if (type === 'new' && newPos === line) return true
      newPos++
    } else if (text.startsWith('-')) {
      if (type === 'old' && oldPos === line) return true
      oldPos++
    } else if (text.startsWith(' ')) {
      oldPos++
      newPos++
    }
  }
  return false
}
