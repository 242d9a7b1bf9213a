import type { Db } from './db.js'

/** A project's place in its fork network (migration 30): the root's row has no source. */
export interface ForkMemberRow {
  project_id: number
  fork_network_id: number
  forked_from_project_id: number | null
  root_project_id: number | null
}

/**
 * Fork networks and their members (`fork_networks`, `fork_network_members`), and the copy of a
 * source's repository into a new fork: its refs (every branch and tag, or one branch), the commits
 * it holds and its annotated tags. The git objects themselves are shared by SHA. Rows in and out, no rules.
 */
export function forkTables(db: Db) {
  const member = db.prepare(
    `SELECT m.project_id, m.fork_network_id, m.forked_from_project_id, n.root_project_id
     FROM fork_network_members m JOIN fork_networks n ON n.id = m.fork_network_id WHERE m.project_id = ?`,
  )
  const forksOf = db.prepare(
    'SELECT project_id FROM fork_network_members WHERE forked_from_project_id = ? ORDER BY project_id',
  )
  const countForks = db.prepare(
    'SELECT COUNT(*) AS n FROM fork_network_members WHERE forked_from_project_id = ?',
  )
  const newNetwork = db.prepare('INSERT INTO fork_networks (root_project_id) VALUES (?)')
  const join = db.prepare(
    `INSERT INTO fork_network_members (project_id, fork_network_id, forked_from_project_id) VALUES (?, ?, ?)
     ON CONFLICT (project_id) DO UPDATE SET
       fork_network_id = excluded.fork_network_id, forked_from_project_id = excluded.forked_from_project_id`,
  )
  const leave = db.prepare('DELETE FROM fork_network_members WHERE project_id = ?')
  const orphanForks = db.prepare(
    'UPDATE fork_network_members SET forked_from_project_id = NULL WHERE forked_from_project_id = ?',
  )
  const unroot = db.prepare('UPDATE fork_networks SET root_project_id = NULL WHERE root_project_id = ?')
  const copyRefs = db.prepare(
    `INSERT INTO project_refs (project_id, kind, name, sha)
     SELECT ?, kind, name, sha FROM project_refs WHERE project_id = ?`,
  )
  const copyBranch = db.prepare(
    `INSERT INTO project_refs (project_id, kind, name, sha)
     SELECT ?, kind, name, sha FROM project_refs WHERE project_id = ? AND kind = 'branch' AND name = ?`,
  )
  const copyCommits = db.prepare(
    'INSERT OR IGNORE INTO project_commits (project_id, sha) SELECT ?, sha FROM project_commits WHERE project_id = ?',
  )
  const copyTags = db.prepare(
    `INSERT INTO annotated_tags (project_id, name, tag_sha)
     SELECT ?, name, tag_sha FROM annotated_tags WHERE project_id = ?`,
  )
  return {
    member: (projectId: number) => member.get(projectId) as ForkMemberRow | undefined,
    /** The ids of the projects forked from this one, oldest first. */
    forksOf: (projectId: number) =>
      (forksOf.all(projectId) as { project_id: number }[]).map((r) => r.project_id),
    countForks: (projectId: number) => (countForks.get(projectId) as { n: number }).n,
    /** A new network rooted at `rootId`, with the root as its first member; returns its id. */
    createNetwork: (rootId: number) => {
      const id = Number(newNetwork.run(rootId).lastInsertRowid)
      join.run(rootId, id, null)
      return id
    },
    /** The project joins the network as a fork of `forkedFrom` (leaving the one it was the root of). */
    join: (projectId: number, networkId: number, forkedFrom: number) =>
      join.run(projectId, networkId, forkedFrom),
    /**
     * Takes the project out of its network: its forks stay in it with no source, and a root leaves
     * the network rootless.
     */
    leave: (projectId: number) => {
      leave.run(projectId)
      orphanForks.run(projectId)
      unroot.run(projectId)
    },
    /** The source's refs (or its one `branch`), commits and annotated tags, now the fork's too. */
    copyRepository: (sourceId: number, forkId: number, branch?: string) => {
      if (branch === undefined) {
        copyRefs.run(forkId, sourceId)
        copyTags.run(forkId, sourceId)
      } else copyBranch.run(forkId, sourceId, branch)
      copyCommits.run(forkId, sourceId)
    },
  }
}
export type ForkTables = ReturnType<typeof forkTables>
