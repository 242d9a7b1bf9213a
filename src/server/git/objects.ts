import { createHash } from 'node:crypto'

/**
 * Git objects the emulator makes for its refs and merge requests: commits with no files (git's
 * empty tree), a fixed author, committer and date, so that each SHA is a pure function of its
 * parents and message. They are real git objects: `git bundle verify` and GitLab's repository
 * restore accept them (`lib/gitlab/import_export/repo_restorer.rb`). Commits with files (the
 * repository API's, `git/commit-files.ts`) add blobs and trees; annotated tags add tag objects.
 */
export type GitObjectType = 'commit' | 'tree' | 'blob' | 'tag'
export interface GitObject {
  type: GitObjectType
  sha: string
  body: Buffer
}

/** Author and committer of every emulator commit: 2020-01-01T00:00:00Z. */
export const EMULATOR_SIGNATURE = {
  name: 'GitLab Emulator',
  email: 'emulator@example.com',
  date: '2020-01-01T00:00:00.000Z',
}
const SIGNATURE = `${EMULATOR_SIGNATURE.name} <${EMULATOR_SIGNATURE.email}> 1577836800 +0000`

/** An object as git hashes it: SHA-1 of `<type> <size>\0<body>`. */
export function gitObject(type: GitObjectType, body: Buffer): GitObject {
  const sha = createHash('sha1').update(`${type} ${body.length}\0`).update(body).digest('hex')
  return { type, sha, body }
}

/** The tree with no entries (`4b825dc642cb6eb9a060e54bf8d69288fbee4904` in every git repository). */
export const EMPTY_TREE = gitObject('tree', Buffer.alloc(0))

/** A commit of the empty tree with these parents; `message` ends in a newline as `git commit` writes it. */
export function emptyCommit(parents: string[], message: string): GitObject {
  const head = [`tree ${EMPTY_TREE.sha}`, ...parents.map((p) => `parent ${p}`)]
  const text = `${head.join('\n')}\nauthor ${SIGNATURE}\ncommitter ${SIGNATURE}\n\n${message}\n`
  return gitObject('commit', Buffer.from(text, 'utf8'))
}

/** The commit a seeded branch or tag points at: a root commit naming the project and the ref. */
export const refCommit = (projectPath: string, ref: string) =>
  emptyCommit([], `${ref}\n\nThe ${ref} ref of ${projectPath}, made by the GitLab emulator.`)

/** What a merge request needs of its project: the commit its target branch points at, if it exists. */
export interface MergeRequestRefs {
  iid: number
  source_branch: string
  target_branch: string
  state: string
}

/**
 * A merge request's commits: its head, one commit on top of the target branch (its base), and for
 * a merged one the merge commit of both. Derived from the base, iid and branch names only, so an
 * imported project (same iid, refs restored from the bundle) reports the same SHAs.
 */
export function mergeRequestCommits(mr: MergeRequestRefs, baseSha: string | undefined) {
  const base = baseSha ? [baseSha] : []
  const head = emptyCommit(base, `${mr.source_branch}\n\nThe head of merge request !${mr.iid}.`)
  const merge =
    mr.state === 'merged'
      ? emptyCommit(
          [...base, head.sha],
          `Merge branch '${mr.source_branch}' into '${mr.target_branch}'\n\nSee merge request !${mr.iid}`,
        )
      : undefined
  return { base: baseSha ?? head.sha, head, merge }
}
