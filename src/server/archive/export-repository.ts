import { BundleWriter } from '../git/bundle.js'
import { EMPTY_TREE, mergeRequestCommits, type GitObject } from '../git/objects.js'
import { parseCommit, parseTag, parseTree } from '../git/trees.js'
import type { ExportReader } from '../store/exports.js'
import type { MergeRequestRow } from '../store/merge-requests.js'
import { mergeRequestRefs } from './export-merge-requests.js'
import type { ProjectRow } from '../store/projects.js'
import type { TarGzWriter } from './tar-gz-writer.js'

const BATCH = 100

/**
 * The objects a ref needs in the bundle: its commit and every ancestor, with their trees and
 * files (an annotated tag: its tag object first). False when one is missing from the store (a
 * repository imported from a bundle of deltas against objects it lacked): such a ref is left out
 * rather than written into a bundle git refuses.
 */
function history(reader: ExportReader, sha: string, into: Map<string, GitObject>): boolean {
  const pending = [sha]
  const found = new Map<string, GitObject>()
  while (pending.length > 0) {
    const next = pending.pop()!
    if (into.has(next) || found.has(next)) continue
    // The empty tree (of seeded and merge request commits) is written whatever the store holds.
    const object = next === EMPTY_TREE.sha ? EMPTY_TREE : reader.gitObject(next)
    if (!object) return false
    found.set(next, object)
    if (object.type === 'tag') pending.push(parseTag(object.body).object)
    else if (object.type === 'commit') {
      const { tree, parents } = parseCommit(object.body)
      pending.push(tree, ...parents)
    } else if (object.type === 'tree')
      pending.push(
        ...parseTree(object.body)
          .filter((e) => e.mode !== '160000')
          .map((e) => e.sha),
      )
  }
  for (const [key, object] of found) into.set(key, object)
  return true
}

/** The project's merge requests, by id, in batches. */
function* mergeRequests(
  reader: ExportReader,
  projectId: number,
  check: () => void,
): Generator<MergeRequestRow> {
  for (let rows = reader.mergeRequests(projectId, 0, BATCH); rows.length > 0;) {
    yield* rows
    check()
    rows = reader.mergeRequests(projectId, rows[rows.length - 1]!.id, BATCH)
  }
}

/**
 * `project.bundle` (`RepoSaver`; restored by `lib/gitlab/import_export/repo_restorer.rb`): every
 * branch at the commit the server reports for it, `HEAD` at the default branch, each merge
 * request's head as `refs/merge-requests/<iid>/head` and a merged one's merge commit as
 * `refs/keep-around/<sha>`, the refs GitLab's own repository keeps for them. The objects are the
 * empty tree and everything the refs reach (commits, trees, files, annotated tags). Written only when there is a ref (GitLab writes no bundle for
 * an empty repository). Merge requests are read twice, in batches: once for the header (where the
 * object count is needed), once for the objects.
 */
export async function writeRepositoryBundle(
  archive: TarGzWriter,
  reader: ExportReader,
  project: ProjectRow,
  check: () => void,
): Promise<void> {
  const commits = new Map<string, GitObject>()
  const tags = new Map(reader.annotatedTags(project.id).map((t) => [t.name, t.tag_sha]))
  const refs = reader
    .refs(project.id)
    .map((r) => (r.kind === 'tag' && tags.has(r.name) ? { ...r, sha: tags.get(r.name)! } : r))
    .filter((r) => history(reader, r.sha, commits))
  if (refs.length === 0) return
  commits.delete(EMPTY_TREE.sha)
  const shaOf = new Map(refs.filter((r) => r.kind === 'branch').map((b) => [b.name, b.sha]))
  const commitsOf = (m: MergeRequestRow) =>
    mergeRequestCommits(mergeRequestRefs(m), shaOf.get(m.target_branch))
  const bundle = new BundleWriter(await archive.stream('./project.bundle'))
  const head = project.default_branch === null ? undefined : shaOf.get(project.default_branch)
  if (head) await bundle.ref({ name: 'HEAD', sha: head })
  for (const r of refs)
    await bundle.ref({ name: `refs/${r.kind === 'tag' ? 'tags' : 'heads'}/${r.name}`, sha: r.sha })
  let count = 1 + commits.size
  for (const m of mergeRequests(reader, project.id, check)) {
    const c = commitsOf(m)
    await bundle.ref({ name: `refs/merge-requests/${String(m.iid)}/head`, sha: c.head.sha })
    if (c.merge) await bundle.ref({ name: `refs/keep-around/${c.merge.sha}`, sha: c.merge.sha })
    count += c.merge ? 2 : 1
  }
  await bundle.startPack(count)
  await bundle.add(EMPTY_TREE)
  for (const commit of commits.values()) await bundle.add(commit)
  for (const m of mergeRequests(reader, project.id, check)) {
    const c = commitsOf(m)
    await bundle.add(c.head)
    if (c.merge) await bundle.add(c.merge)
  }
  await bundle.end()
}
