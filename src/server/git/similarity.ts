/**
 * Git's rename similarity (`diffcore-delta.c`, `diffcore-rename.c`'s `estimate_similarity`): a
 * file is cut into spans (a line, or 64 bytes, whichever ends first; a CR before LF not counted
 * in text), each span hashed as git hashes it, and the bytes of spans both files hold count as
 * copied. The score is the copied bytes over the larger size, out of `MAX_SCORE`; a rename needs
 * half (`-M`'s default 50%). The same hash, so the same collisions, and so the same scores as git.
 */

export const MAX_SCORE = 60000
/** `-M`'s default: 50%. */
export const MINIMUM_SCORE = 30000
const HASHBASE = 107927

/** The bytes of each span hash of a file (`hash_chars`); its blob need not be kept once counted. */
export function spanCounts(body: Buffer): Map<number, number> {
  const text = !body.subarray(0, 8000).includes(0)
  const counts = new Map<number, number>()
  const add = (hash: number, n: number) => counts.set(hash, (counts.get(hash) ?? 0) + n)
  let accum1 = 0
  let accum2 = 0
  let n = 0
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!
    if (text && c === 13 && i + 1 < body.length && body[i + 1] === 10) continue
    const old1 = accum1
    accum1 = (((accum1 << 7) ^ (accum2 >>> 25)) + c) >>> 0
    accum2 = ((accum2 << 7) ^ (old1 >>> 25)) >>> 0
    if (++n < 64 && c !== 10) continue
    add(((accum1 + Math.imul(accum2, 0x61)) >>> 0) % HASHBASE, n)
    n = accum1 = accum2 = 0
  }
  if (n > 0) add(((accum1 + Math.imul(accum2, 0x61)) >>> 0) % HASHBASE, n)
  return counts
}

/**
 * The similarity score of a source and a destination of these sizes and span counts (`counts`
 * read only when the sizes leave a chance): 0 when their sizes differ by more than the minimum
 * score allows, or the destination is empty.
 */
export function similarity(
  src: { size: number; counts: () => Map<number, number> },
  dst: { size: number; counts: () => Map<number, number> },
  minimum = MINIMUM_SCORE,
): number {
  const max = Math.max(src.size, dst.size)
  const delta = max - Math.min(src.size, dst.size)
  if (max * (MAX_SCORE - minimum) < delta * MAX_SCORE || dst.size === 0) return 0
  const s = src.counts()
  let copied = 0
  for (const [hash, n] of dst.counts()) copied += Math.min(n, s.get(hash) ?? 0)
  return Math.floor((copied * MAX_SCORE) / max)
}

/** `diff.renameLimit`'s default: past this many sources times destinations, exact renames only. */
const RENAME_LIMIT = 1000
/** Candidates kept per destination (`NUM_CANDIDATE_PER_DST`). */
const CANDIDATES = 4

const basename = (path: string) => path.slice(path.lastIndexOf('/') + 1)
/** Only regular files pair by similarity; a symlink or submodule renames only unchanged. */
const regular = (mode: string) => mode === '100644' || mode === '100755'

interface Candidate {
  src: number
  dst: number
  score: number
  sameName: boolean
}
/** `score_compare`: the higher score first, then a shared basename; then the order found. */
const better = (a: Candidate, b: Candidate) => b.score - a.score || Number(b.sameName) - Number(a.sameName)

/**
 * The renames by similarity among files deleted (`sources`) and added (`dests`), each given as
 * `[path, blob sha, mode]` in path order, left over from exact renames (`diffcore_rename`): first
 * the pairs whose basename is unique on both sides and similar enough (`find_basename_matches`),
 * then the rest by the best scores first, each file in one pair at most. New path → old path.
 * A blob is read for its size, and again for its spans only when sizes leave a chance: no two
 * blobs are held at once, only their span counts.
 */
export function similarRenames(
  read: (sha: string) => Buffer | undefined,
  sources: readonly (readonly [string, string, string])[],
  dests: readonly (readonly [string, string, string])[],
): Map<string, string> {
  const pairs = new Map<string, string>()
  const src = sources.filter(([, , mode]) => regular(mode))
  const dst = dests.filter(([, , mode]) => regular(mode))
  if (src.length === 0 || dst.length === 0 || src.length * dst.length > RENAME_LIMIT ** 2) return pairs
  const files = new Map<string, { size: number; counts: () => Map<number, number> }>()
  const file = (sha: string) => {
    let f = files.get(sha)
    if (!f) {
      let counts: Map<number, number> | undefined
      const size = read(sha)?.length ?? 0
      f = { size, counts: () => (counts ??= spanCounts(read(sha) ?? Buffer.alloc(0))) }
      files.set(sha, f)
    }
    return f
  }
  const usedSrc = new Set<number>()
  const usedDst = new Set<number>()
  const pair = (s: number, d: number) => {
    usedSrc.add(s)
    usedDst.add(d)
    pairs.set(dst[d]![0], src[s]![0])
  }

  const unique = (list: readonly (readonly [string, string, string])[]) => {
    const seen = new Map<string, number>()
    list.forEach(([path], i) => seen.set(basename(path), seen.has(basename(path)) ? -1 : i))
    return seen
  }
  const dstNames = unique(dst)
  for (const [name, s] of unique(src)) {
    const d = dstNames.get(name)
    if (s < 0 || d === undefined || d < 0) continue
    if (similarity(file(src[s]![1]), file(dst[d]![1])) >= MINIMUM_SCORE) pair(s, d)
  }

  const candidates: Candidate[] = []
  dst.forEach(([dstPath, dstSha], d) => {
    if (usedDst.has(d)) return
    const best: Candidate[] = []
    src.forEach(([srcPath, srcSha], s) => {
      if (usedSrc.has(s)) return
      const score = similarity(file(srcSha), file(dstSha))
      if (score < MINIMUM_SCORE) return
      best.push({ src: s, dst: d, score, sameName: basename(srcPath) === basename(dstPath) })
      best.sort(better)
      if (best.length > CANDIDATES) best.pop()
    })
    candidates.push(...best)
  })
  for (const c of candidates.sort(better)) if (!usedDst.has(c.dst) && !usedSrc.has(c.src)) pair(c.src, c.dst)
  return pairs
}
