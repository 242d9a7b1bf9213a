/** A changed line's numbers in the old and the new file (`Gitlab::Diff::Line#old_pos`, `#new_pos`). */
export interface LinePositions {
  old: number
  new: number
}

/**
 * Where a file's diff (`unifiedDiff`'s hunks) holds a changed line: `type` `new` an added line whose
 * number in the new file is `line`, `old` a removed line whose number in the old file is `line`; undefined
 * when it holds none. Context lines are neither (`Gitlab::Diff::Parser` gives them no type), as the commit
 * comments API matches them. An added line's old position is the old file's line it comes before, and a
 * removed line's new position likewise, as the parser counts them.
 */
export function diffLine(diff: string, line: number, type: 'new' | 'old'): LinePositions | undefined {
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
      if (type === 'new' && newPos === line) return { old: oldPos, new: newPos }
      newPos++
    } else if (text.startsWith('-')) {
      if (type === 'old' && oldPos === line) return { old: oldPos, new: newPos }
      oldPos++
    } else if (text.startsWith(' ')) {
      oldPos++
      newPos++
    }
  }
  return undefined
}
