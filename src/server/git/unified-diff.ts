import { structuredPatch } from 'diff'

/**
 * The hunks of a file's diff as Gitaly hands them to GitLab (`Gitlab::Git::Diff#diff`): git's
 * unified format with three lines of context, without the `diff --git`, `index`, `---` and `+++`
 * header lines. The line matching is jsdiff's Myers diff (the `diff` package), the same algorithm
 * git uses, though git's indent heuristic may slide an ambiguous hunk elsewhere.
 */

/** Git's binary test (`buffer_is_binary`): a NUL in the first 8000 bytes. */
const isBinary = (b: Buffer | undefined) => b !== undefined && b.subarray(0, 8000).includes(0)

/** The longest function context git writes after a hunk header (`xdemitconf_t`'s 80-byte buffer). */
const FUNC_CONTEXT = 80

/**
 * Git's default function line (`def_ff` in xdiff/xemit.c): a line that starts with a letter, `_` or
 * `$`, cut to 80 bytes and right-trimmed.
 */
function funcLine(lines: readonly string[], before: number): string {
  for (let i = before; i >= 0; i--) {
    const line = lines[i]!
    if (/^[A-Za-z_$]/.test(line)) return Buffer.from(line).subarray(0, FUNC_CONTEXT).toString().trimEnd()
  }
  return ''
}

/** `-start,count` as git writes it: the count left out when 1, the start the line before when 0. */
const range = (start: number, count: number) =>
  count === 1 ? `${start}` : `${count === 0 ? start - 1 : start},${count}`

/**
 * The diff of a file from `before` to `after` (undefined: the file does not exist on that side);
 * `''` when no lines differ (a rename or a mode change alone, an empty file added). A binary side
 * gives git's notice, with `/dev/null` for a missing side.
 */
export function unifiedDiff(
  before: Buffer | undefined,
  after: Buffer | undefined,
  oldPath: string,
  newPath: string,
): string {
  if (isBinary(before) || isBinary(after)) {
    if (before !== undefined && after !== undefined && before.equals(after)) return ''
    const a = before === undefined ? '/dev/null' : `a/${oldPath}`
    const b = after === undefined ? '/dev/null' : `b/${newPath}`
    return `Binary files ${a} and ${b} differ\n`
  }
  const oldText = before?.toString('utf8') ?? ''
  const newText = after?.toString('utf8') ?? ''
  const patch = structuredPatch('a', 'b', oldText, newText, undefined, undefined, { context: 3 })
  const oldLines = oldText.split('\n')
  let out = ''
  for (const h of patch.hunks) {
    const func = h.oldStart > 1 ? funcLine(oldLines, h.oldStart - 2) : ''
    out += `@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@${func ? ` ${func}` : ''}\n`
    for (const line of h.lines) out += `${line}\n`
  }
  return out
}
