/*
 * Mirrored comments: each source comment mirrored once, and followed after that. Each mirror carries,
 * in its marker, a digest of its source's text (`src`) and of its own text (`dst`). A source edited since (its digest moved) rewrites the
 * mirror; a source deleted deletes it; a mirror edited by hand as well is a conflict, reported and
 * left alone. Markers written before these digests existed follow deletions only (never a rewrite of
 * every old marker). Edits of a mirror never flow back: its source is a person's comment.
 */
import type { Confidential, Op, Side, SideComment, SideIssue, Skip, SyncOptions } from './model.js'
import type { Rewrite } from './references.js'
import { writtenBySync } from './pairs.js'
import { canonical, commentText, withMarker } from './render.js'
import { digest, formatMarker, parseMarker, stripMarkers } from './text.js'

/** The source id (`github:123`) a comment mirrors, when it is one of the sync's mirrors. */
export function mirroredId(c: SideComment, side: Side, opts: SyncOptions): string | undefined {
  const m = parseMarker(c.body)
  return m?.comment && writtenBySync(side, c.author, opts.identity) ? m.comment : undefined
}

const textDigest = (text: string) => digest(canonical(text))

/** The mirror of `c` on `side`: header, `content` (the source's text as rewritten for `side`), marker. */
export function mirrorComment(side: Side, c: SideComment, fromSide: Side, content: string): string {
  const text = commentText(side, c, fromSide, content)
  const marker = formatMarker({
    v: 1,
    comment: `${fromSide}:${c.id}`,
    src: textDigest(c.body),
    dst: textDigest(text),
  })
  return withMarker(text, marker)
}

/** The comment ops that mirror `source`'s comments onto `target` (oldest first), once each. */
export function commentOps(
  key: string,
  source: SideIssue,
  target: SideIssue | undefined,
  targetSide: Side,
  opts: SyncOptions,
  kept: Confidential,
  rewrite: Rewrite,
): Op[] {
  const done = new Set((target?.comments ?? []).flatMap((c) => mirroredId(c, targetSide, opts) ?? []))
  const internal = (c: SideComment) =>
    source.side === 'gitlab' && c.internal === true && !opts.includeConfidential
  return [...(source.comments ?? [])]
    .filter((c) => mirroredId(c, source.side, opts) === undefined && !done.has(`${source.side}:${c.id}`))
    .filter((c) => {
      if (!internal(c)) return true
      kept.notes++
      return false
    })
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id)
    .map((c) => ({
      kind: 'comment' as const,
      key,
      side: targetSide,
      number: target?.number,
      from: { side: source.side, number: source.number, comment: c.id, url: c.url },
      body: mirrorComment(targetSide, c, source.side, rewrite(c.body, source.side)),
    }))
}

/**
 * The edits and deletions that bring `target`'s mirrors of `source`'s comments in step. Both sides'
 * comments must have been read. `render` gives a source comment's content for the target side.
 */
export function commentChangeOps(
  key: string,
  source: SideIssue,
  target: SideIssue,
  opts: SyncOptions,
  render: (c: SideComment) => string,
  conflicts: Skip[],
): Op[] {
  const bySource = new Map((source.comments ?? []).map((c) => [`${source.side}:${c.id}`, c]))
  const ops: Op[] = []
  for (const mirror of target.comments ?? []) {
    const id = mirroredId(mirror, target.side, opts)
    if (!id?.startsWith(`${source.side}:`)) continue
    const marker = parseMarker(mirror.body) ?? {}
    const from = { side: source.side, number: source.number, comment: Number(id.split(':')[1]), url: '' }
    const base = { key, side: target.side, number: target.number, comment: mirror.id }
    const origin = bySource.get(id)
    if (!origin) {
      ops.push({ kind: 'comment-delete', ...base, from: { ...from, url: source.url } })
      continue
    }
    if (!marker.src || marker.src === textDigest(origin.body)) continue
    if (marker.dst && marker.dst !== textDigest(stripMarkers(mirror.body))) {
      conflicts.push({
        key,
        reason: `comment ${id} was edited on ${source.side} and its mirror ${target.side}:${mirror.id} was edited too since the last sync; both left alone`,
      })
      continue
    }
    const body = mirrorComment(target.side, origin, source.side, render(origin))
    ops.push({ kind: 'comment-edit', ...base, from: { ...from, url: origin.url }, body })
  }
  return ops
}
