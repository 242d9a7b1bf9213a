/*
 * Identity (never by title): which GitHub issue and GitLab issue are one. A mirror
 * carries a marker naming its origin (repository id and name, issue number); renames of issues
 * change nothing, and a renamed repository or project is still matched by its id. Anyone who can
 * open an issue can write a marker, so a marker counts only on an issue the sync itself wrote.
 */
import type { Places, Side, SideIssue, Skip, SyncOptions } from './model.js'
import { formatMarker, parseMarker } from './text.js'

/** A GitHub issue and its GitLab twin; `mirror` is the side created by the sync (it holds the marker). */
export interface Pair {
  key: string
  github: SideIssue
  gitlab: SideIssue
  mirror: Side
  marker: Record<string, string>
}

/** The result of pairing. */
export interface Pairing {
  pairs: Pair[]
  /** Issues without a twin and without a marker of ours: candidates to create on the other side. */
  unpaired: SideIssue[]
  skips: Skip[]
}

export const keyOf = (issue: { side: Side; number: number }) => `${issue.side}#${issue.number}`

/** The marker naming `origin` (its place and number), as the mirror on the other side carries it. */
export function originMarker(origin: SideIssue, places: Places, extra: Record<string, string | undefined>) {
  const where =
    origin.side === 'github'
      ? { repo: places.github.repo, repo_id: places.github.id }
      : { project: places.gitlab.project, project_id: places.gitlab.id }
  return formatMarker({ v: 1, from: origin.side, ...where, number: origin.number, ...extra })
}

/**
 * Whether `author` can be the sync, which alone writes mirrors and mirrored comments on `side`: the
 * token's own user; or, when GitHub will not say who the token is (`GITHUB_TOKEN` and app tokens
 * answer 403 to `GET /user`), a GitHub App's bot such as `github-actions[bot]` (no person's login
 * holds `[` or `]`). A GitLab token that cannot say who it is (a job token) writes no issues.
 */
export function writtenBySync(side: Side, author: string, identity: SyncOptions['identity']): boolean {
  const me = identity[side]
  if (me !== undefined) return author === me
  return side === 'github' && author.endsWith('[bot]')
}

type Claim = { mirror: SideIssue; origin: Side; number: number; marker: Record<string, string> }

/** What a marker claims, if it is one of ours for these places; `foreign` when it names elsewhere. */
function claimOf(issue: SideIssue, places: Places): Claim | 'foreign' | undefined {
  const m = parseMarker(issue.body)
  if (!m || !m.from || !m.number) return undefined
  const number = Number(m.number)
  if (m.from === 'github' && issue.side === 'gitlab') {
    const ok = m.repo_id
      ? Number(m.repo_id) === places.github.id
      : m.repo?.toLowerCase() === places.github.repo.toLowerCase()
    return ok ? { mirror: issue, origin: 'github', number, marker: m } : 'foreign'
  }
  if (m.from === 'gitlab' && issue.side === 'github') {
    const ok = m.project_id
      ? Number(m.project_id) === places.gitlab.id
      : m.project?.toLowerCase() === places.gitlab.project.toLowerCase()
    return ok ? { mirror: issue, origin: 'gitlab', number, marker: m } : 'foreign'
  }
  return 'foreign'
}

/**
 * Pairs issues by markers. A marked issue the sync did not write is reported and left alone (its
 * marker names nothing). Two of the sync's mirrors claiming the same origin: the lower number wins;
 * the others are reported and left alone. A mirror whose origin is missing is reported and never
 * re-created (`scoped`: the origin was simply not read).
 */
export function pairIssues(
  github: SideIssue[],
  gitlab: SideIssue[],
  opts: SyncOptions,
  scoped = false,
): Pairing {
  const byKey = new Map([...github, ...gitlab].map((i) => [keyOf(i), i]))
  const claims: Claim[] = []
  const marked = new Set<string>()
  const skips: Skip[] = []
  for (const issue of [...github, ...gitlab]) {
    const claim = claimOf(issue, opts.places)
    if (!claim) continue
    marked.add(keyOf(issue))
    if (claim === 'foreign') continue
    // A forged marker would hand the origin to whoever wrote it (retitled, closed, commented on).
    if (!writtenBySync(issue.side, issue.author, opts.identity)) {
      const origin = `${claim.origin}#${claim.number}`
      const sync =
        opts.identity[issue.side] ?? (issue.side === 'github' ? 'a GitHub App bot' : 'no GitLab user')
      skips.push({
        key: keyOf(issue),
        origin,
        reason: `claims to mirror ${origin}, a pairing it does not own: written by ${issue.author}, not by the sync (${sync}); ignored`,
      })
      continue
    }
    claims.push(claim)
  }
  claims.sort((a, b) => a.mirror.number - b.mirror.number || a.mirror.side.localeCompare(b.mirror.side))
  const taken = new Set<string>()
  const pairs: Pair[] = []
  for (const c of claims) {
    const originKey = `${c.origin}#${c.number}`
    const origin = byKey.get(originKey)
    const mirrorKey = keyOf(c.mirror)
    if (!origin) {
      if (!scoped)
        skips.push({
          key: mirrorKey,
          origin: originKey,
          reason: `mirrors ${originKey}, which was not found (deleted, moved or a pull request); not re-created`,
        })
      continue
    }
    if (taken.has(originKey) || taken.has(mirrorKey)) {
      skips.push({ key: mirrorKey, origin: originKey, reason: `a second mirror of ${originKey}; left alone` })
      continue
    }
    taken.add(originKey).add(mirrorKey)
    const [gh, gl] = c.origin === 'github' ? [origin, c.mirror] : [c.mirror, origin]
    pairs.push({
      key: `github#${gh.number}`,
      github: gh,
      gitlab: gl,
      mirror: c.mirror.side,
      marker: c.marker,
    })
  }
  const unpaired = [...github, ...gitlab].filter((i) => !taken.has(keyOf(i)) && !marked.has(keyOf(i)))
  return { pairs, unpaired, skips }
}
