/**
 * Lines added and removed between two versions of a file, as `git diff --numstat` counts them:
 * the lines of each side not in their longest common subsequence (Myers' O(ND) walk, which needs
 * only D, the edit distance). A binary side (a NUL in its first 8000 bytes, git's test) counts no
 * lines. Past `MAX_EDITS` edits the count is every differing line between the common head and
 * tail: an upper bound, where git would spend as long as it takes.
 */
const MAX_EDITS = 2000

const isBinary = (b: Buffer) => b.subarray(0, 8000).includes(0)

/** A file's lines as git counts them: the last one need not end in a newline. */
function linesOf(b: Buffer): string[] {
  if (b.length === 0) return []
  const text = b.toString('latin1')
  const lines = text.split('\n')
  if (text.endsWith('\n')) lines.pop()
  return lines
}

export interface LineStats {
  additions: number
  deletions: number
}

export function lineStats(before: Buffer | undefined, after: Buffer | undefined): LineStats {
  if ((before && isBinary(before)) || (after && isBinary(after))) return { additions: 0, deletions: 0 }
  let a = before ? linesOf(before) : []
  let b = after ? linesOf(after) : []
  let head = 0
  while (head < a.length && head < b.length && a[head] === b[head]) head++
  let tail = 0
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++
  a = a.slice(head, a.length - tail)
  b = b.slice(head, b.length - tail)
  const d = editDistance(a, b)
  if (d === undefined) return { additions: b.length, deletions: a.length }
  const common = (a.length + b.length - d) / 2
  return { additions: b.length - common, deletions: a.length - common }
}

/** Myers' shortest edit script length (insertions plus deletions), or undefined past MAX_EDITS. */
function editDistance(a: string[], b: string[]): number | undefined {
  const n = a.length
  const m = b.length
  if (n === 0 || m === 0) return n + m
  const max = Math.min(n + m, MAX_EDITS)
  const v = new Int32Array(2 * max + 2)
  for (let d = 0; d <= max; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[max + k - 1]! < v[max + k + 1]!) ? v[max + k + 1]! : v[max + k - 1]! + 1
      let y = x - k
      while (x < n && y < m && a[x] === b[y]) {
        x++
        y++
      }
      v[max + k] = x
      if (x >= n && y >= m) return d
    }
  }
  return undefined
}
