import { EMPTY_TREE, gitObject, type GitObject } from './objects.js'
import {
  commitObject,
  isTreeMode,
  parseCommit,
  parseTree,
  treeObject,
  type Signature,
  type TreeEntry,
} from './trees.js'

/** Where git objects are read and written (the store's `gitObjects`, shared by every project). */
export interface ObjectSource {
  get(sha: string): GitObject | undefined
  put(object: GitObject): unknown
}

/** A file of a tree: its mode (`100644`, `100755`, `120000`) and blob SHA. */
export interface FileEntry {
  mode: string
  sha: string
}

/** The tree a commit points at, or undefined when `sha` is not a commit the store holds. */
export function treeOfCommit(objects: ObjectSource, sha: string): string | undefined {
  const commit = objects.get(sha)
  return commit?.type === 'commit' ? parseCommit(commit.body).tree : undefined
}

/** The entries of a tree (none when the store lacks it, as for a commit imported without its trees). */
export function treeEntries(objects: ObjectSource, treeSha: string): TreeEntry[] {
  const tree = objects.get(treeSha)
  return tree?.type === 'tree' ? parseTree(tree.body) : []
}

/** Every file under a tree by path (`a/b.txt`), folders walked depth first. */
export function filesOf(objects: ObjectSource, treeSha: string, prefix = ''): Map<string, FileEntry> {
  const files = new Map<string, FileEntry>()
  for (const e of treeEntries(objects, treeSha)) {
    const path = `${prefix}${e.name}`
    if (isTreeMode(e.mode)) for (const [p, f] of filesOf(objects, e.sha, `${path}/`)) files.set(p, f)
    else files.set(path, { mode: e.mode, sha: e.sha })
  }
  return files
}

/** Writes the trees of these files (path → entry) and returns the root tree's SHA. */
export function writeTree(objects: ObjectSource, files: Map<string, FileEntry>): string {
  const folders = new Map<string, Map<string, FileEntry | 'tree'>>([['', new Map()]])
  const folder = (path: string) => {
    let entries = folders.get(path)
    if (!entries) {
      folders.set(path, (entries = new Map()))
      const slash = path.lastIndexOf('/')
      folder(slash < 0 ? '' : path.slice(0, slash)).set(path.slice(slash + 1), 'tree')
    }
    return entries
  }
  for (const [path, file] of files) {
    const slash = path.lastIndexOf('/')
    folder(slash < 0 ? '' : path.slice(0, slash)).set(path.slice(slash + 1), file)
  }
  const write = (path: string): string => {
    const entries = [...folders.get(path)!].map(([name, e]): TreeEntry => {
      if (e !== 'tree') return { mode: e.mode, name, sha: e.sha }
      return { mode: '40000', name, sha: write(path === '' ? name : `${path}/${name}`) }
    })
    if (entries.length === 0) return EMPTY_TREE.sha
    const tree = treeObject(entries)
    objects.put(tree)
    return tree.sha
  }
  objects.put(EMPTY_TREE)
  return write('')
}

export interface PathEntry {
  type: 'blob' | 'tree' | 'commit'
  mode: string
  sha: string
}

/** What `path` names in a tree: a file, a folder, a submodule, or nothing. `''` is the tree itself. */
export function entryInTree(objects: ObjectSource, treeSha: string, path: string): PathEntry | undefined {
  let current: PathEntry = { type: 'tree', mode: '40000', sha: treeSha }
  for (const name of path.split('/').filter((s) => s !== '')) {
    if (current.type !== 'tree') return undefined
    const e = treeEntries(objects, current.sha).find((x) => x.name === name)
    if (!e) return undefined
    const type = isTreeMode(e.mode) ? 'tree' : e.mode === '160000' ? 'commit' : 'blob'
    current = { type, mode: e.mode, sha: e.sha }
  }
  return current
}

/** What `path` names at a commit (see `entryInTree`). */
export function entryAt(objects: ObjectSource, commitSha: string, path: string): PathEntry | undefined {
  const tree = treeOfCommit(objects, commitSha)
  return tree === undefined ? undefined : entryInTree(objects, tree, path)
}

/**
 * A root commit of these text files (path → content) with one author and committer: the commit
 * of a seed's `files:` and of `initialize_with_readme`. Writes its blobs and trees; returns the
 * commit, which the caller stores.
 */
export function filesCommit(
  objects: ObjectSource,
  files: Record<string, string>,
  message: string,
  signature: Signature,
): GitObject {
  const entries = new Map<string, FileEntry>()
  for (const [path, text] of Object.entries(files)) {
    const blob = gitObject('blob', Buffer.from(text, 'utf8'))
    objects.put(blob)
    entries.set(path.replace(/^\/+/, ''), { mode: '100644', sha: blob.sha })
  }
  const tree = writeTree(objects, entries)
  return commitObject({ tree, parents: [], author: signature, committer: signature, message })
}
