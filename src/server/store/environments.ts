import type { Db } from './db.js'
import type { JobRow } from './pipelines.js'

export interface EnvironmentRow {
  id: number
  project_id: number
  name: string
  slug: string
  external_url: string | null
  tier: string
  /** `available`, `stopping` (its stop actions run) or `stopped`. */
  state: string
  created_at: string
  updated_at: string
  /** When the auto-stop stops it (migration 44); null for never. */
  auto_stop_at: string | null
  /** Null when none (migration 45). */
  description: string | null
  /** `always` or `with_action` (migration 45). */
  auto_stop_setting: string
  /** When the auto-delete deletes it, if stopped then (migration 50); null for never. */
  auto_delete_at: string | null
}
/** A new environment is scheduled for no deletion. */
export type NewEnvironment = Omit<EnvironmentRow, 'id' | 'auto_delete_at'>

export interface DeploymentRow {
  id: number
  iid: number
  project_id: number
  environment_id: number
  ref: string
  tag: number
  sha: string
  user_id: number | null
  /** The job that deploys; null for a deployment made through the API. */
  deployable_id: number | null
  status: string
  created_at: string
  updated_at: string
  finished_at: string | null
  /** The job's `environment: on_stop`, the name of its stop action (migration 44). */
  on_stop: string | null
}
export type NewDeployment = Omit<DeploymentRow, 'id' | 'iid'>

/** A deployment's move that a Deployment Hook reports (migration 43): the status it moved to, and when. */
export interface DeploymentTransition {
  deployment: DeploymentRow
  status: string
  changed_at: string
}

export interface DeploymentFilter {
  projectId: number
  environmentId?: number
  status?: string
  updatedAfter?: string
  updatedBefore?: string
  finishedAfter?: string
  finishedBefore?: string
  order: 'id' | 'iid' | 'created_at' | 'updated_at' | 'finished_at' | 'ref'
  sort: 'asc' | 'desc'
}

/**
 * Environments, deployments and which job names which environment (migration 42); rows in and out,
 * no rules. Deployments and environments follow their jobs by the migration's triggers.
 */
export function environmentTable(db: Db) {
  const insert = db.prepare(
    `INSERT INTO environments (project_id, name, slug, external_url, tier, state, created_at, updated_at,
       auto_stop_at, description, auto_stop_setting)
     VALUES (@project_id, @name, @slug, @external_url, @tier, @state, @created_at, @updated_at, @auto_stop_at,
       @description, @auto_stop_setting)`,
  )
  const update = db.prepare(
    `UPDATE environments SET name = @name, slug = @slug, external_url = @external_url, tier = @tier,
       state = @state, updated_at = @updated_at, auto_stop_at = @auto_stop_at, description = @description,
       auto_stop_setting = @auto_stop_setting WHERE id = @id`,
  )
  const byId = db.prepare('SELECT * FROM environments WHERE project_id = ? AND id = ?')
  const byName = db.prepare('SELECT * FROM environments WHERE project_id = ? AND name = ?')
  const bySlug = db.prepare('SELECT * FROM environments WHERE project_id = ? AND slug = ?')
  // `EnvironmentsFinder`: `?2` an exact name; `?3` a search, the start of the name or of a folder's part
  // of it (`for_name_like`, `for_name_like_within_folder`); `?4` a state. By id, as GitLab's pages order.
  const filter = `project_id = ?1 AND (?2 IS NULL OR name = ?2) AND (?3 IS NULL
    OR substr(lower(name), 1, length(?3)) = lower(?3) OR instr(lower(name), '/' || lower(?3)) > 0)
    AND (?4 IS NULL OR state = ?4)`
  const list = db.prepare(`SELECT * FROM environments WHERE ${filter} ORDER BY id LIMIT ?5 OFFSET ?6`)
  const count = db.prepare(`SELECT COUNT(*) FROM environments WHERE ${filter}`).pluck()
  const remove = db.prepare('DELETE FROM environments WHERE id = ?')
  const insertDeployment = db.prepare(
    `INSERT INTO deployments (iid, project_id, environment_id, ref, tag, sha, user_id, deployable_id, status,
       created_at, updated_at, finished_at, on_stop)
     VALUES ((SELECT COALESCE(MAX(iid), 0) + 1 FROM deployments WHERE project_id = @project_id), @project_id,
       @environment_id, @ref, @tag, @sha, @user_id, @deployable_id, @status, @created_at, @updated_at, @finished_at,
       @on_stop)`,
  )
  const setDeployment = db.prepare(
    'UPDATE deployments SET status = @status, updated_at = @updated_at, finished_at = @finished_at WHERE id = @id',
  )
  const deploymentById = db.prepare('SELECT * FROM deployments WHERE project_id = ? AND id = ?')
  const removeDeployment = db.prepare('DELETE FROM deployments WHERE id = ?')
  const transitions = db.prepare(
    `SELECT t.status AS moved_to, t.changed_at AS moved_at, d.* FROM deployment_transitions t
     JOIN deployments d ON d.id = t.deployment_id ORDER BY t.id`,
  )
  const clearTransitions = db.prepare('DELETE FROM deployment_transitions')
  // What a hook's test sends (`DeploymentsFinder`, newest `created_at` first).
  const newestDeployment = db.prepare(
    'SELECT * FROM deployments WHERE project_id = ? ORDER BY created_at DESC, id DESC LIMIT 1',
  )
  // `Environment#last_deployment` (`success.ordered`): the successful one that finished last, not the one
  // made last; the newer of two that finished together.
  const lastDeployment = db.prepare(
    `SELECT * FROM deployments WHERE environment_id = ? AND status = 'success'
     ORDER BY finished_at DESC, id DESC LIMIT 1`,
  )
  const link = db.prepare(
    `INSERT OR REPLACE INTO job_environments (build_id, environment_id, action, url, auto_stop_in)
     VALUES (?, ?, ?, ?, ?)`,
  )
  // `Environment#stop_actions`: of the pipeline of the environment's last finished deployment, the jobs
  // named by the `on_stop` of its deployments to this environment whose jobs finished, among the
  // pipeline's manual actions (`Deployment#stop_action`, `Ci::Processable.manual_actions`: `when: manual`,
  // waiting or completed).
  const stopActions = db.prepare(
    `SELECT DISTINCT s.* FROM deployments d
     JOIN ci_builds b ON b.id = d.deployable_id AND b.retried = 0
     JOIN ci_builds s ON s.pipeline_id = b.pipeline_id AND s.name = d.on_stop AND s.retried = 0
       AND s.id <> b.id AND s.status IN ('manual', 'success', 'failed', 'canceled', 'skipped')
     JOIN ci_job_definitions def ON def.build_id = s.id AND json_extract(def.definition, '$.when') = 'manual'
     WHERE d.environment_id = ?1 AND d.status IN ('success', 'failed', 'canceled')
       AND b.pipeline_id = (SELECT b2.pipeline_id FROM deployments d2 JOIN ci_builds b2 ON b2.id = d2.deployable_id
         WHERE d2.environment_id = ?1 AND d2.status IN ('success', 'failed', 'canceled')
         ORDER BY d2.finished_at DESC, d2.id DESC LIMIT 1)
     ORDER BY s.id`,
  )
  // `Environment.deployed_and_updated_before`: available ones neither updated nor deployed to since `?2`.
  const stale = db.prepare(
    `SELECT * FROM environments e WHERE e.project_id = ?1 AND e.state = 'available' AND e.updated_at < ?2
       AND NOT EXISTS (SELECT 1 FROM deployments d WHERE d.environment_id = e.id AND d.updated_at >= ?2)
     ORDER BY e.id`,
  )
  // `Environment.auto_stoppable`: available, its `auto_stop_at` passed.
  const autoStoppable = db.prepare(
    `SELECT * FROM environments WHERE auto_stop_at IS NOT NULL AND auto_stop_at < ? AND state = 'available'
     ORDER BY auto_stop_at, id`,
  )
  // `Environment.not_scheduled_for_deletion.stopped_review_apps`: stopped, of the `review` folder
  // (`environment_type`, the name's first part), made before `?2`, no deletion scheduled; the oldest
  // first, at most `?3`.
  const stoppedReviewApps = db.prepare(
    `SELECT * FROM environments WHERE project_id = ?1 AND state = 'stopped' AND substr(name, 1, 7) = 'review/'
       AND created_at < ?2 AND auto_delete_at IS NULL ORDER BY created_at, id LIMIT ?3`,
  )
  // `Environment.schedule_to_delete`: an `update_all`, which leaves `updated_at`.
  const scheduleDeletion = db.prepare('UPDATE environments SET auto_delete_at = ? WHERE id = ?')
  // `Environment.auto_deletable`: stopped, its `auto_delete_at` passed.
  const autoDeletable = db.prepare(
    `SELECT * FROM environments WHERE auto_delete_at IS NOT NULL AND auto_delete_at < ? AND state = 'stopped'
     ORDER BY auto_delete_at, id`,
  )
  const setUrl = db.prepare('UPDATE job_environments SET url = ? WHERE build_id = ?')
  const deploymentWhere = (f: DeploymentFilter) => {
    const parts = ['project_id = ?']
    const args: (string | number)[] = [f.projectId]
    const add = (sql: string, arg: string | number) => (parts.push(sql), args.push(arg))
    if (f.environmentId !== undefined) add('environment_id = ?', f.environmentId)
    if (f.status !== undefined) add('status = ?', f.status)
    if (f.updatedAfter !== undefined) add('updated_at > ?', f.updatedAfter)
    if (f.updatedBefore !== undefined) add('updated_at < ?', f.updatedBefore)
    if (f.finishedAfter !== undefined) add('finished_at > ?', f.finishedAfter)
    if (f.finishedBefore !== undefined) add('finished_at < ?', f.finishedBefore)
    return { sql: parts.join(' AND '), args }
  }
  return {
    insert: (row: NewEnvironment) => Number(insert.run(row).lastInsertRowid),
    update: (row: EnvironmentRow) => void update.run(row),
    get: (projectId: number, id: number) => byId.get(projectId, id) as EnvironmentRow | undefined,
    named: (projectId: number, name: string) => byName.get(projectId, name) as EnvironmentRow | undefined,
    withSlug: (projectId: number, slug: string) => bySlug.get(projectId, slug) as EnvironmentRow | undefined,
    list: (
      projectId: number,
      f: { name?: string; search?: string; state?: string },
      limit: number,
      offset: number,
    ) =>
      list.all(
        projectId,
        f.name ?? null,
        f.search ?? null,
        f.state ?? null,
        limit,
        offset,
      ) as EnvironmentRow[],
    count: (projectId: number, f: { name?: string; search?: string; state?: string }) =>
      count.get(projectId, f.name ?? null, f.search ?? null, f.state ?? null) as number,
    remove: (id: number) => void remove.run(id),
    insertDeployment: (row: NewDeployment) => Number(insertDeployment.run(row).lastInsertRowid),
    setDeployment: (row: Pick<DeploymentRow, 'id' | 'status' | 'updated_at' | 'finished_at'>) =>
      void setDeployment.run(row),
    deployment: (projectId: number, id: number) =>
      deploymentById.get(projectId, id) as DeploymentRow | undefined,
    removeDeployment: (id: number) => void removeDeployment.run(id),
    /** The moves recorded since the last call, oldest first; they are taken out. */
    takeTransitions: (): DeploymentTransition[] => {
      const rows = transitions.all() as (DeploymentRow & { moved_to: string; moved_at: string })[]
      if (rows.length === 0) return []
      clearTransitions.run()
      return rows.map(({ moved_to, moved_at, ...deployment }) => ({
        deployment,
        status: moved_to,
        changed_at: moved_at,
      }))
    },
    newestDeployment: (projectId: number) => newestDeployment.get(projectId) as DeploymentRow | undefined,
    lastDeployment: (environmentId: number) => lastDeployment.get(environmentId) as DeploymentRow | undefined,
    countDeployments: (f: DeploymentFilter) => {
      const w = deploymentWhere(f)
      return db
        .prepare(`SELECT COUNT(*) FROM deployments WHERE ${w.sql}`)
        .pluck()
        .get(...w.args) as number
    },
    deployments: (f: DeploymentFilter, limit: number, offset: number) => {
      const w = deploymentWhere(f)
      const dir = f.sort === 'asc' ? 'ASC' : 'DESC'
      return db
        .prepare(
          `SELECT * FROM deployments WHERE ${w.sql} ORDER BY ${f.order} ${dir}, id ${dir} LIMIT ? OFFSET ?`,
        )
        .all(...w.args, limit, offset) as DeploymentRow[]
    },
    /**
     * Records the environment a job's `environment:` names (GitLab's `job_environments`), with the seconds
     * of its `auto_stop_in` (0: it sets no time; null: it has none).
     */
    linkJob: (
      buildId: number,
      environmentId: number,
      action: string,
      url: string | null,
      autoStopIn: number | null,
    ) => void link.run(buildId, environmentId, action, url, autoStopIn),
    /** The jobs that stop the environment when played (`Environment#stop_actions`), oldest first. */
    stopActions: (environmentId: number) => stopActions.all(environmentId) as JobRow[],
    /** The project's available environments neither updated nor deployed to since `before`, by id. */
    stale: (projectId: number, before: string) => stale.all(projectId, before) as EnvironmentRow[],
    /** The project's stopped review apps made before `before` and not scheduled for deletion, the oldest first, at most `limit`. */
    stoppedReviewApps: (projectId: number, before: string, limit: number) =>
      stoppedReviewApps.all(projectId, before, limit) as EnvironmentRow[],
    /** Sets the `auto_delete_at` of the environment `id`. */
    scheduleDeletion: (id: number, at: string) => void scheduleDeletion.run(at, id),
    /** The stopped environments whose `auto_delete_at` is before `now`, the earliest first. */
    autoDeletable: (now: string) => autoDeletable.all(now) as EnvironmentRow[],
    /** The available environments whose `auto_stop_at` is before `now`, the earliest first. */
    autoStoppable: (now: string) => autoStoppable.all(now) as EnvironmentRow[],
    /** The job's `url` with its variables expanded, as the job ran (before its success moves the environment). */
    expandJobUrl: (buildId: number, url: string) => void setUrl.run(url, buildId),
  }
}
export type EnvironmentTable = ReturnType<typeof environmentTable>
