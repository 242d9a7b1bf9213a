import type { Db } from './db.js'
import { likeEscape, refSearch } from '../domain/ref-search.js'
import type { RefKind } from './projects.js'

export interface RefRow {
  kind: RefKind
  name: string
  sha: string
}

export interface ProtectedBranchRow {
  id: number
  project_id: number
  name: string
  push_access_level: number
  merge_access_level: number
  unprotect_access_level: number
  allow_force_push: number
  code_owner_approval_required: number
}
export type NewProtectedBranch = Omit<ProtectedBranchRow, 'id'>

/** A protected tag (migration 29): who may create (and so delete) tags its name matches. */
export interface ProtectedTagRow {
  id: number
  project_id: number
  name: string
  create_access_level: number
  created_at: string
  updated_at: string
}

/**
 * A project's repository beyond its objects (migration 22): its refs by kind, the commits it has,
 * its protected branches and tags, and annotated tags. Rows in and out, no rules.
 */
export function repositoryTables(db: Db) {
  const ref = db.prepare(
    'SELECT kind, name, sha FROM project_refs WHERE project_id = ? AND kind = ? AND name = ?',
  )
  const setRef = db.prepare(
    `INSERT INTO project_refs (project_id, kind, name, sha) VALUES (?, ?, ?, ?)
     ON CONFLICT (project_id, kind, name) DO UPDATE SET sha = excluded.sha`,
  )
  const deleteRef = db.prepare('DELETE FROM project_refs WHERE project_id = ? AND kind = ? AND name = ?')
  const refs = db.prepare(
    `SELECT kind, name, sha FROM project_refs WHERE project_id = ? AND kind = ? AND name LIKE ? ESCAPE '\\'
     ORDER BY name = ? COLLATE NOCASE DESC, name LIMIT ? OFFSET ?`,
  )
  const countRefs = db.prepare(
    "SELECT COUNT(*) AS n FROM project_refs WHERE project_id = ? AND kind = ? AND name LIKE ? ESCAPE '\\'",
  )
  const anyRef = db.prepare('SELECT 1 FROM project_refs WHERE project_id = ? LIMIT 1')
  const refsAt = db.prepare('SELECT kind, name, sha FROM project_refs WHERE project_id = ? AND sha = ?')
  const addCommit = db.prepare('INSERT OR IGNORE INTO project_commits (project_id, sha) VALUES (?, ?)')
  const hasCommit = db.prepare('SELECT 1 FROM project_commits WHERE project_id = ? AND sha = ?')
  const commitsFrom = db.prepare(
    'SELECT sha FROM project_commits WHERE project_id = ? AND sha >= ? AND sha < ? ORDER BY sha LIMIT 2',
  )
  const protectedAll = db.prepare('SELECT * FROM protected_branches WHERE project_id = ? ORDER BY id')
  const protectedPage = db.prepare(
    `SELECT * FROM protected_branches WHERE project_id = ? AND name LIKE ? ESCAPE '\\' ORDER BY id LIMIT ? OFFSET ?`,
  )
  const protectedCount = db.prepare(
    "SELECT COUNT(*) AS n FROM protected_branches WHERE project_id = ? AND name LIKE ? ESCAPE '\\'",
  )
  const protectedByName = db.prepare('SELECT * FROM protected_branches WHERE project_id = ? AND name = ?')
  const protect = db.prepare(
    `INSERT INTO protected_branches (project_id, name, push_access_level, merge_access_level,
       unprotect_access_level, allow_force_push, code_owner_approval_required)
     VALUES (@project_id, @name, @push_access_level, @merge_access_level, @unprotect_access_level,
       @allow_force_push, @code_owner_approval_required)`,
  )
  const unprotect = db.prepare('DELETE FROM protected_branches WHERE project_id = ? AND name = ?')
  const protectedTags = db.prepare('SELECT * FROM protected_tags WHERE project_id = ? ORDER BY id')
  const protectedTagPage = db.prepare(
    'SELECT * FROM protected_tags WHERE project_id = ? ORDER BY id LIMIT ? OFFSET ?',
  )
  const protectedTagCount = db.prepare('SELECT COUNT(*) AS n FROM protected_tags WHERE project_id = ?')
  const protectedTag = db.prepare('SELECT * FROM protected_tags WHERE project_id = ? AND name = ?')
  const protectTag = db.prepare(
    `INSERT INTO protected_tags (project_id, name, create_access_level, created_at, updated_at)
     VALUES (@project_id, @name, @create_access_level, @created_at, @updated_at)`,
  )
  const unprotectTag = db.prepare('DELETE FROM protected_tags WHERE project_id = ? AND name = ?')
  const tagObject = db.prepare('SELECT tag_sha FROM annotated_tags WHERE project_id = ? AND name = ?')
  const setTagObject = db.prepare(
    `INSERT INTO annotated_tags (project_id, name, tag_sha) VALUES (?, ?, ?)
     ON CONFLICT (project_id, name) DO UPDATE SET tag_sha = excluded.tag_sha`,
  )
  const deleteTagObject = db.prepare('DELETE FROM annotated_tags WHERE project_id = ? AND name = ?')
  const like = (search: string | undefined) => `%${likeEscape(search ?? '')}%`
  return {
    ref: (projectId: number, kind: RefKind, name: string) =>
      ref.get(projectId, kind, name) as RefRow | undefined,
    setRef: (projectId: number, kind: RefKind, name: string, sha: string) =>
      setRef.run(projectId, kind, name, sha),
    deleteRef: (projectId: number, kind: RefKind, name: string) => deleteRef.run(projectId, kind, name),
    /** One page of branches or tags by name, the exact match first, `search` as GitLab reads it (`refSearch`). */
    refs: (projectId: number, kind: RefKind, search: string | undefined, limit: number, offset: number) => {
      const { like, exact } = refSearch(search)
      return refs.all(projectId, kind, like, exact, limit, offset) as RefRow[]
    },
    countRefs: (projectId: number, kind: RefKind, search?: string) =>
      (countRefs.get(projectId, kind, refSearch(search).like) as { n: number }).n,
    /** True when the project has no branch or tag (`empty_repo?`). */
    isEmpty: (projectId: number) => anyRef.get(projectId) === undefined,
    refsAt: (projectId: number, sha: string) => refsAt.all(projectId, sha) as RefRow[],
    addCommit: (projectId: number, sha: string) => addCommit.run(projectId, sha),
    hasCommit: (projectId: number, sha: string) => hasCommit.get(projectId, sha) !== undefined,
    /** Up to two commits of the project whose SHA starts with `prefix` (two: it is ambiguous). */
    commitsStartingWith: (projectId: number, prefix: string) =>
      (commitsFrom.all(projectId, prefix, `${prefix}g`) as { sha: string }[]).map((r) => r.sha),
    protectedBranches: (projectId: number) => protectedAll.all(projectId) as unknown as ProtectedBranchRow[],
    protectedPage: (projectId: number, search: string | undefined, limit: number, offset: number) =>
      protectedPage.all(projectId, like(search), limit, offset) as unknown as ProtectedBranchRow[],
    protectedCount: (projectId: number, search?: string) =>
      (protectedCount.get(projectId, like(search)) as { n: number }).n,
    protectedBranch: (projectId: number, name: string) =>
      protectedByName.get(projectId, name) as ProtectedBranchRow | undefined,
    protect: (row: NewProtectedBranch) => Number(protect.run(row).lastInsertRowid),
    unprotect: (projectId: number, name: string) => unprotect.run(projectId, name).changes > 0,
    /** Every protected tag of the project, oldest first. */
    protectedTags: (projectId: number) => protectedTags.all(projectId) as unknown as ProtectedTagRow[],
    protectedTagPage: (projectId: number, limit: number, offset: number) =>
      protectedTagPage.all(projectId, limit, offset) as unknown as ProtectedTagRow[],
    protectedTagCount: (projectId: number) => (protectedTagCount.get(projectId) as { n: number }).n,
    protectedTag: (projectId: number, name: string) =>
      protectedTag.get(projectId, name) as ProtectedTagRow | undefined,
    protectTag: (row: Omit<ProtectedTagRow, 'id'>) => Number(protectTag.run(row).lastInsertRowid),
    unprotectTag: (projectId: number, name: string) => unprotectTag.run(projectId, name).changes > 0,
    tagObject: (projectId: number, name: string) =>
      (tagObject.get(projectId, name) as { tag_sha: string } | undefined)?.tag_sha,
    setTagObject: (projectId: number, name: string, sha: string) => setTagObject.run(projectId, name, sha),
    deleteTagObject: (projectId: number, name: string) => deleteTagObject.run(projectId, name),
  }
}
export type RepositoryTables = ReturnType<typeof repositoryTables>
