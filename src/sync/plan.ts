/*
 * The planner: pure and deterministic, no network, no clock. Given both sides'
 * issues it returns the writes that bring them in step, and nothing when they already are.
 *
 * The rule for `both`: the mirror's marker keeps, per field, a digest of each side's value
 * at the last sync. A field that changed on one side only flows from that side. A field changed on
 * both sides goes to the side whose issue was updated last (`updated_at`; a tie goes to the origin,
 * the side the issue was first written on). Fields changed nowhere are left alone. A marker without
 * digests (first pairing) makes the origin win. One-way directions always copy from the source.
 */
import { mapField, same } from './mapping.js'
import {
  FIELDS,
  other,
  type Confidential,
  type FieldName,
  type Fields,
  type IssueWrite,
  type Op,
  type Side,
  type SideIssue,
  type Skip,
  type SyncOptions,
} from './model.js'
import { keyOf, originMarker, pairIssues, type Pair } from './pairs.js'
import { closeNote, githubStateReason } from './close-reasons.js'
import { commentChangeOps, commentOps } from './comment-changes.js'
import { canonical, issueHeader, mirrorBody, originBody, readBody, withMarker } from './render.js'
import { rewriterOf, type Rewrite } from './references.js'
import { carriesScope, descopedReason, pairInScope } from './scope.js'
import { digest } from './text.js'

/** Limits planning to some GitHub issues (event mode); other issues are neither created nor reported. */
export interface Scope {
  github: number[]
}

export interface Plan {
  ops: Op[]
  skips: Skip[]
  /** Confidential GitLab issues and internal notes that were not mirrored. */
  confidential: Confidential
  /** Pairs (and unpaired issues the direction ignores) with nothing to write. */
  unchanged: number
  /** Pairs that left the `only-labels` scope (not synced, reported). */
  descoped: Skip[]
}

const sorted = (v: string[]) => [...new Set(v)].sort()

/** The comparable fields of an issue (a mirror's body without its link and marker). */
export function fieldsOf(issue: SideIssue, mirror: boolean): Fields {
  return {
    title: issue.title.replace(/\s+/g, ' ').trim(),
    body: readBody(issue.side, issue.body, mirror),
    state: issue.state,
    labels: sorted(issue.labels),
    assignees: sorted(issue.assignees),
    milestone: issue.milestone,
  }
}

const flows = (direction: SyncOptions['direction'], from: Side) =>
  direction === 'both' || direction === `${from}-to-${other(from)}`

const placeOf = (side: Side, opts: SyncOptions) =>
  side === 'github' ? opts.places.github.repo : opts.places.gitlab.project

/**
 * Whether `issue` is a confidential GitLab issue that stays off GitHub. GitLab shows confidential
 * issues and internal notes to project members only (`app/policies/issue_policy.rb`,
 * `app/policies/note_policy.rb`) and sends them only to hooks that subscribe to
 * `confidential_issues_events` / `confidential_note_events` (`app/models/hooks/project_hook.rb`);
 * a mirror on a public GitHub repository would publish them.
 */
const hidden = (issue: SideIssue, opts: SyncOptions) =>
  issue.side === 'gitlab' && issue.confidential === true && !opts.includeConfidential

/** `comments=GH.GL` of a marker: the comment counts both sides had after the last sync. */
const counts = (marker: Record<string, string>) => marker.comments

/**
 * Whether the planner needs a pair's comments: comments are on, someone commented, and the counts
 * differ from those the marker recorded. Adapters call it to read as little as the APIs allow.
 */
export function needsComments(
  gh: SideIssue,
  gl: SideIssue | undefined,
  marker: Record<string, string> | undefined,
  opts: SyncOptions,
) {
  if (!opts.comments) return false
  if (gh.comment_count === 0 && (gl?.comment_count ?? 0) === 0) return false
  return !marker || counts(marker) !== `${gh.comment_count}.${gl?.comment_count ?? 0}`
}

const digestsOf = (gh: Fields, gl: Fields) =>
  Object.fromEntries(FIELDS.map((f) => [f, `${digest(gh[f])}.${digest(gl[f])}`])) as Record<FieldName, string>

/** A new mirror of `origin` on the other side, with its comments. */
function planCreate(origin: SideIssue, opts: SyncOptions, kept: Confidential, rewrite: Rewrite): Op[] {
  const to = other(origin.side)
  const key = keyOf(origin)
  const src = fieldsOf(origin, false)
  const content = rewrite(src.body, origin.side)
  const empty: Fields = { title: '', body: '', state: 'open', labels: [], assignees: [], milestone: null }
  const target = { ...empty }
  for (const f of FIELDS) (target as Record<FieldName, unknown>)[f] = mapField(f, src[f], empty[f], to, opts)
  const header = issueHeader(origin, placeOf(origin.side, opts), closeNote(origin, opts))
  const body = mirrorBody(to, header, content)
  target.body = readBody(to, body, true)
  const comments =
    opts.comments && flows(opts.direction, origin.side)
      ? commentOps(key, origin, undefined, to, opts, kept, rewrite)
      : []
  const [gh, gl] = origin.side === 'github' ? [src, target] : [target, src]
  const read = origin.comments !== undefined || origin.comment_count === 0
  const pairCounts =
    origin.side === 'github'
      ? [origin.comment_count, comments.length]
      : [comments.length, origin.comment_count]
  const n = opts.comments && read ? { comments: pairCounts.join('.') } : {}
  const marker = originMarker(origin, opts.places, { ...digestsOf(gh, gl), ...n })
  const from = { side: origin.side, number: origin.number, url: origin.url, title: origin.title }
  return [
    { kind: 'create', key, side: to, from, set: { ...target, body: withMarker(body, marker) } },
    ...comments,
  ]
}

/** Which side's value of `field` wins (undefined: leave both). */
function winner(
  field: FieldName,
  pair: Pair,
  now: Record<Side, Fields>,
  opts: SyncOptions,
): Side | undefined {
  if (opts.direction !== 'both') return opts.direction === 'github-to-gitlab' ? 'github' : 'gitlab'
  const origin = other(pair.mirror)
  const base = pair.marker[field]?.split('.')
  if (!base || base.length !== 2) return origin
  const changed = (side: Side) => digest(now[side][field]) !== base[side === 'github' ? 0 : 1]
  const gh = changed('github')
  const gl = changed('gitlab')
  if (gh !== gl) return gh ? 'github' : 'gitlab'
  // Unchanged on both sides: the mirror's body is rendered again from its origin (references to
  // issues paired since then get their mirrored numbers); it is written only if that differs.
  if (!gh) return field === 'body' ? origin : undefined
  const t = (side: Side) => Date.parse(pair[side].updated_at) || 0
  return t('github') > t('gitlab') ? 'github' : t('gitlab') > t('github') ? 'gitlab' : origin
}

/**
 * The writes of one pair: changed fields each way, comments, and the mirror's marker. Nothing
 * of a confidential GitLab issue flows to GitHub (the caller leaves GitLab-born ones alone).
 */
function planPair(
  pair: Pair,
  opts: SyncOptions,
  kept: Confidential,
  conflicts: Skip[],
  rewrite: Rewrite,
  scoped: boolean,
): Op[] {
  const now: Record<Side, Fields> = {
    github: fieldsOf(pair.github, pair.mirror === 'github'),
    gitlab: fieldsOf(pair.gitlab, pair.mirror === 'gitlab'),
  }
  const next: Record<Side, Fields> = { github: { ...now.github }, gitlab: { ...now.gitlab } }
  const changed: Record<Side, FieldName[]> = { github: [], gitlab: [] }
  for (const f of FIELDS) {
    const from = winner(f, pair, now, opts)
    if (!from || (from === 'gitlab' && hidden(pair.gitlab, opts))) continue
    // Event mode knows one pair only: a body unchanged since the last sync is not rendered again
    // (its references to other issues would lose their mirrored numbers).
    const base = pair.marker[f]?.split('.')[from === 'github' ? 0 : 1]
    if (f === 'body' && scoped && base === digest(now[from].body)) continue
    const to = other(from)
    const mapped = mapField(f, now[from][f], now[to][f], to, opts)
    const value = f === 'body' ? rewrite(mapped as string, from) : mapped
    if (same(value, now[to][f])) continue
    ;(next[to] as Record<FieldName, unknown>)[f] = value
    changed[to].push(f)
  }
  const ops: Op[] = []
  let n = pair.marker.comments
  if (opts.comments && pair.github.comments && pair.gitlab.comments) {
    const toGl = flows(opts.direction, 'github')
      ? commentOps(pair.key, pair.github, pair.gitlab, 'gitlab', opts, kept, rewrite)
      : []
    const toGh =
      flows(opts.direction, 'gitlab') && !hidden(pair.gitlab, opts)
        ? commentOps(pair.key, pair.gitlab, pair.github, 'github', opts, kept, rewrite)
        : []
    const changes = (source: Side, go: boolean) =>
      go
        ? commentChangeOps(
            pair.key,
            pair[source],
            pair[other(source)],
            opts,
            (c) => rewrite(c.body, source),
            conflicts,
          )
        : []
    const onGl = changes('github', flows(opts.direction, 'github'))
    const onGh = changes('gitlab', flows(opts.direction, 'gitlab') && !hidden(pair.gitlab, opts))
    ops.push(...toGh, ...onGh, ...toGl, ...onGl)
    const gone = (list: Op[]) => list.filter((o) => o.kind === 'comment-delete').length
    n = `${pair.github.comment_count + toGh.length - gone(onGh)}.${pair.gitlab.comment_count + toGl.length - gone(onGl)}`
  } else if (opts.comments && pair.github.comment_count === 0 && pair.gitlab.comment_count === 0)
    // No comments on either side: a marker that never counted them is left as it is (turning
    // `comments` on must not rewrite every marker); one that counted some records the zeros.
    n = pair.marker.comments === undefined ? undefined : '0.0'
  // Raw bodies, then what each side will read back (the digests describe stored values).
  const raw: Partial<Record<Side, string>> = {}
  const origin = other(pair.mirror)
  if (changed[origin].includes('body')) {
    raw[origin] = originBody(origin, next[origin].body)
    next[origin].body = readBody(origin, raw[origin], false)
  }
  const header = issueHeader(pair[origin], placeOf(origin, opts), closeNote(pair[origin], opts))
  const mirrorText = mirrorBody(pair.mirror, header, next[pair.mirror].body)
  next[pair.mirror].body = readBody(pair.mirror, mirrorText, true)
  const marker = originMarker(pair[origin], opts.places, {
    ...digestsOf(next.github, next.gitlab),
    comments: n,
  })
  const mirrorRaw = withMarker(mirrorText, marker)
  if (canonical(mirrorRaw) !== canonical(pair[pair.mirror].body)) raw[pair.mirror] = mirrorRaw
  const from = (side: Side) => {
    const src = pair[other(side)]
    return { side: src.side, number: src.number, url: src.url, title: src.title }
  }
  const updates: Op[] = []
  for (const side of ['github', 'gitlab'] as const) {
    const set: IssueWrite = {}
    for (const f of changed[side]) if (f !== 'body') (set as Record<string, unknown>)[f] = next[side][f]
    if (raw[side] !== undefined) set.body = raw[side]
    const reason = side === 'github' && set.state === 'closed' ? githubStateReason(pair.gitlab) : undefined
    if (reason) set.state_reason = reason
    if (Object.keys(set).length > 0)
      updates.push({
        kind: 'update',
        key: pair.key,
        side,
        number: pair[side].number,
        from: from(side),
        set,
        changed: changed[side],
      })
  }
  // Comments first: a failed comment stops the pair before its marker records the new counts.
  return [...ops, ...updates]
}

/**
 * Plans a sync. Pure: the same issues and options give the same ops, in the same order (pairs by
 * GitHub number, then creates by side and number). Issues of `scope` only, when given.
 */
export function plan(github: SideIssue[], gitlab: SideIssue[], opts: SyncOptions, scope?: Scope): Plan {
  const inScope = scope ? new Set(scope.github) : undefined
  const { pairs, unpaired, skips } = pairIssues(github, gitlab, opts, inScope !== undefined)
  const rewrite = rewriterOf(pairs, opts)
  const ops: Op[] = []
  const kept: Confidential = { issues: 0, notes: 0 }
  const held: Skip[] = []
  const descoped: Skip[] = []
  let unchanged = 0
  for (const pair of [...pairs].sort((a, b) => a.github.number - b.github.number)) {
    if (inScope && !inScope.has(pair.github.number)) continue
    if (!pairInScope(pair, opts)) {
      descoped.push({ key: pair.key, reason: descopedReason(opts) })
      continue
    }
    // Made confidential after it was mirrored: its GitHub mirror keeps what it had, nothing new.
    if (pair.mirror === 'github' && hidden(pair.gitlab, opts)) {
      kept.issues++
      held.push({
        key: keyOf(pair.gitlab),
        reason: `confidential on GitLab: its GitHub mirror #${pair.github.number} is no longer updated ('include-confidential' is off)`,
      })
      continue
    }
    const planned = planPair(pair, opts, kept, held, rewrite, inScope !== undefined)
    if (planned.length === 0) unchanged++
    ops.push(...planned)
  }
  const order = (i: SideIssue) => (i.side === 'github' ? 0 : 1)
  for (const issue of [...unpaired].sort((a, b) => order(a) - order(b) || a.number - b.number)) {
    if (inScope && !(issue.side === 'github' && inScope.has(issue.number))) continue
    if (!flows(opts.direction, issue.side) || !carriesScope(issue, opts)) continue
    if (hidden(issue, opts)) kept.issues++
    else ops.push(...planCreate(issue, opts, kept, rewrite))
  }
  const shown = (s: Skip) =>
    !inScope || [s.key, s.origin].some((k) => [...inScope].some((n) => k === `github#${n}`))
  return { ops, skips: [...skips.filter(shown), ...held], confidential: kept, unchanged, descoped }
}
