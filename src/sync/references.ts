/*
 * References, mentions and relative links in text copied to the other forge. Each forge links
 * `#12` to its own issue 12, so a copied `#12` would point at the wrong issue: it becomes the mirrored
 * number when the issue is paired, else a full link back. `@user` would notify whoever holds that name
 * on the other side: it is mapped through `user-map`, else wrapped in backticks, as GitLab's importers
 * do (`lib/gitlab/import/username_mention_rewriter.rb`, gitlab-org/gitlab#477097). Relative image and
 * upload links (`/uploads/...`) are made absolute.
 * Code spans and fenced code blocks are copied untouched. Pure.
 */
import type { Side, SyncOptions } from './model.js'
import type { Pair } from './pairs.js'
import { fencedLines } from './text.js'

/** What rewriting needs: where each side lives on the web, the paired numbers, the user map. */
export interface LinkContext {
  /** `https://github.com/acme/widgets` */
  github: { repo: string; web: string }
  /** `https://gitlab.example.com/acme/widgets` */
  gitlab: { project: string; web: string }
  /** GitHub number -> GitLab iid of every known pair, and back. */
  numbers: { github: Map<number, number>; gitlab: Map<number, number> }
  /** GitHub login -> GitLab username. */
  userMap: Record<string, string>
}

/** `https://host/prefix` of a project's web address (its path taken off the end). */
const hostOf = (web: string, path: string) =>
  web.toLowerCase().endsWith(`/${path.toLowerCase()}`) ? web.slice(0, -(path.length + 1)) : web

/** Each plain (non-code) run of a line: inline code spans (CommonMark's equal backtick runs) kept whole. */
function mapPlain(line: string, f: (plain: string) => string): string {
  let out = ''
  let at = 0
  const ticks = /`+/g
  for (let m = ticks.exec(line); m; m = ticks.exec(line)) {
    const close = new RegExp(`(?<!\`)${m[0]}(?!\`)`, 'g')
    close.lastIndex = m.index + m[0].length
    const end = close.exec(line)
    if (!end) continue
    out += f(line.slice(at, m.index)) + line.slice(m.index, end.index + m[0].length)
    at = end.index + m[0].length
    ticks.lastIndex = at
  }
  return out + f(line.slice(at))
}

const REF = /(?<![\w/&#!@`.-])(?:([\w.-]+(?:\/[\w.-]+)+))?([#!])(\d+)\b/g
const MENTION = /(?<![\w`@/.+-])@([A-Za-z0-9_](?:[\w.-]*[A-Za-z0-9_])?(?:\/[\w.-]*[A-Za-z0-9_])*)/g
const RELATIVE = /(\]\(|\bsrc=["'])(\/(?!\/)[^)\s"']*)/g

/** `text` written on `from`, ready for the other side. */
export function rewriteReferences(text: string, from: Side, ctx: LinkContext): string {
  const lines = text.split('\n')
  const fenced = fencedLines(lines)
  const gh = ctx.github
  const gl = ctx.gitlab
  const ghHost = hostOf(gh.web, gh.repo)
  const glHost = hostOf(gl.web, gl.project)
  const back = new Map(Object.entries(ctx.userMap).map(([g, l]) => [l.toLowerCase(), g]))
  const forward = new Map(Object.entries(ctx.userMap).map(([g, l]) => [g.toLowerCase(), l]))

  const ref = (whole: string, place: string | undefined, sigil: string, n: string) => {
    const number = Number(n)
    if (from === 'github') {
      if (sigil === '!') return whole // no meaning on GitHub; left as written
      const own = !place || place.toLowerCase() === gh.repo.toLowerCase()
      if (!own) return `${ghHost}/${place}/issues/${n}`
      const twin = ctx.numbers.github.get(number)
      return twin !== undefined ? `#${twin}` : `${gh.web}/issues/${n}`
    }
    const kind = sigil === '!' ? 'merge_requests' : 'issues'
    const own = !place || place.toLowerCase() === gl.project.toLowerCase()
    if (!own) return `${glHost}/${place}/-/${kind}/${n}`
    const twin = sigil === '#' ? ctx.numbers.gitlab.get(number) : undefined
    return twin !== undefined ? `#${twin}` : `${gl.web}/-/${kind}/${n}`
  }
  const mention = (_whole: string, name: string) => {
    const mapped = (from === 'github' ? forward : back).get(name.toLowerCase())
    return mapped ? `@${mapped}` : `\`@${name}\``
  }
  const absolute = (_whole: string, lead: string, path: string) => {
    const base = from === 'github' ? ghHost : path.startsWith('/uploads/') ? gl.web : glHost
    return `${lead}${base}${path}`
  }
  const plain = (s: string) =>
    s
      .replace(RELATIVE, absolute)
      .replace(REF, (whole, place: string | undefined, sigil: string, n: string, at: number, all: string) =>
        // inside a link address (`](http://x/#12)`) or an absolute URL: left alone
        /\]\([^)]*$|https?:\/\/\S*$/.test(all.slice(0, at)) ? whole : ref(whole, place, sigil, n),
      )
      .replace(MENTION, (whole, name: string, at: number, all: string) =>
        /\]\([^)]*$|https?:\/\/\S*$/.test(all.slice(0, at)) ? whole : mention(whole, name),
      )
  return lines.map((line, i) => (fenced.has(i) ? line : mapPlain(line, plain))).join('\n')
}

/** Text written on `from`, as the other side should read it. */
export type Rewrite = (text: string, from: Side) => string

/** The rewriter of a plan: references through the known pairs (none without `opts.web`). */
export function rewriterOf(pairs: Pair[], opts: SyncOptions): Rewrite {
  const web = opts.web
  if (!web) return (text) => text
  const ctx = {
    github: { repo: opts.places.github.repo, web: web.github },
    gitlab: { project: opts.places.gitlab.project, web: web.gitlab },
    numbers: {
      github: new Map(pairs.map((p) => [p.github.number, p.gitlab.number])),
      gitlab: new Map(pairs.map((p) => [p.gitlab.number, p.github.number])),
    },
    userMap: opts.userMap,
  }
  return (text, from) => rewriteReferences(text, from, ctx)
}
