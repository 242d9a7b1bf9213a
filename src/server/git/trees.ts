import { gitObject, type GitObject } from './objects.js'

/**
 * Trees, commits and annotated tags as git writes them (gitformat-commit, git's `tree.c`): parsed
 * from and written to object bodies, so that a commit made here hashes as `git` would hash it.
 */

/** Modes the repository API writes: a file, an executable file, a folder (git writes `40000`). */
export type EntryMode = '100644' | '100755' | '40000' | '120000' | '160000'

export interface TreeEntry {
  mode: string
  name: string
  sha: string
}

/** Entries of a tree body: `<mode> <name>\0<20-byte SHA>` each. */
export function parseTree(body: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = []
  let at = 0
  while (at < body.length) {
    const space = body.indexOf(0x20, at)
    const nul = body.indexOf(0, space)
    if (space < 0 || nul < 0 || nul + 21 > body.length) throw new Error('corrupt tree object')
    entries.push({
      mode: body.toString('latin1', at, space),
      name: body.toString('utf8', space + 1, nul),
      sha: body.toString('hex', nul + 1, nul + 21),
    })
    at = nul + 21
  }
  return entries
}

/** A folder's mode, however it was written (`40000`, or `040000` by some tools). */
export const isTreeMode = (mode: string) => mode === '40000' || mode === '040000'

/**
 * A tree object of these entries in git's order: by name, a folder compared as if its name ended
 * in `/` (`base_name_compare`), so `a.txt` sorts before the folder `a` and `a-b` before it too.
 */
export function treeObject(entries: TreeEntry[]): GitObject {
  const key = (e: TreeEntry) => Buffer.from(isTreeMode(e.mode) ? `${e.name}/` : e.name, 'utf8')
  const sorted = [...entries].sort((a, b) => Buffer.compare(key(a), key(b)))
  const parts = sorted.flatMap((e) => [
    Buffer.from(`${e.mode} ${e.name}\0`, 'utf8'),
    Buffer.from(e.sha, 'hex'),
  ])
  return gitObject('tree', Buffer.concat(parts))
}

/** Who made a commit or tag, and when: seconds since the epoch and git's `+hhmm` offset. */
export interface Signature {
  name: string
  email: string
  seconds: number
  offset: string
}

export interface CommitFields {
  tree: string
  parents: string[]
  author: Signature
  committer: Signature
  /** The message as stored (the API stores it as given; `git commit` ends it with a newline). */
  message: string
}

/** Git refuses `<`, `>` and newlines inside an identity; it drops them, as `git commit` does. */
const clean = (s: string) => s.replace(/[<>\n]/g, '').trim()
const signatureLine = (s: Signature) => `${clean(s.name)} <${clean(s.email)}> ${s.seconds} ${s.offset}`

/** A signature at an ISO instant, in UTC (the server's clock has no zone). */
export const signatureAt = (name: string, email: string, iso: string): Signature => ({
  name,
  email,
  seconds: Math.floor(Date.parse(iso) / 1000),
  offset: '+0000',
})

export function commitObject(c: CommitFields): GitObject {
  const head = [`tree ${c.tree}`, ...c.parents.map((p) => `parent ${p}`)]
  head.push(`author ${signatureLine(c.author)}`, `committer ${signatureLine(c.committer)}`)
  return gitObject('commit', Buffer.from(`${head.join('\n')}\n\n${c.message}`, 'utf8'))
}

const SIGNATURE = /^(.*) <(.*)> (-?\d+) ([+-]\d{4})$/
function parseSignature(line: string): Signature {
  const m = SIGNATURE.exec(line)
  if (!m) return { name: line, email: '', seconds: 0, offset: '+0000' }
  return { name: m[1]!, email: m[2]!, seconds: Number(m[3]), offset: m[4]! }
}

/** The header fields and message of a commit body. */
export function parseCommit(body: Buffer): CommitFields {
  const text = body.toString('utf8')
  const end = text.indexOf('\n\n')
  const header = (end < 0 ? text : text.slice(0, end)).split('\n')
  const message = end < 0 ? '' : text.slice(end + 2)
  const field = (name: string) =>
    header.filter((l) => l.startsWith(`${name} `)).map((l) => l.slice(name.length + 1))
  return {
    tree: field('tree')[0] ?? '',
    parents: field('parent'),
    author: parseSignature(field('author')[0] ?? ''),
    committer: parseSignature(field('committer')[0] ?? ''),
    message,
  }
}

export interface TagFields {
  object: string
  type: string
  tag: string
  tagger?: Signature
  message: string
}

/** An annotated tag object (`git tag -a`): its message ends in a newline as git writes it. */
export function tagObject(t: Required<TagFields>): GitObject {
  const message = t.message.endsWith('\n') ? t.message : `${t.message}\n`
  const text = `object ${t.object}\ntype ${t.type}\ntag ${t.tag}\ntagger ${signatureLine(t.tagger)}\n\n${message}`
  return gitObject('tag', Buffer.from(text, 'utf8'))
}

export function parseTag(body: Buffer): TagFields {
  const text = body.toString('utf8')
  const end = text.indexOf('\n\n')
  const header = (end < 0 ? text : text.slice(0, end)).split('\n')
  const get = (name: string) => header.find((l) => l.startsWith(`${name} `))?.slice(name.length + 1)
  const tagger = get('tagger')
  return {
    object: get('object') ?? '',
    type: get('type') ?? 'commit',
    tag: get('tag') ?? '',
    ...(tagger ? { tagger: parseSignature(tagger) } : {}),
    message: end < 0 ? '' : text.slice(end + 2),
  }
}
