/**
 * Migration 46: artifacts that expire, and the pipelines that keep theirs.
 * - `project_ci_cd_settings.keep_latest_artifact` (GitLab's `project_ci_cd_settings` column, default
 *   true); a project without a row keeps the default.
 * - `ci_pipeline_artifact_locks`: a pipeline listed here is `artifacts_locked` (`ci_pipelines.locked`):
 *   its jobs' artifacts outlive their `expire_at`. A pipeline starts locked while its project keeps the
 *   latest artifacts (`Project#default_pipeline_lock`; the store's insert locks it, not a trigger, which
 *   would also fire for the rows a snapshot's restore copies back); once a pipeline succeeds with no newer one of its
 *   ref finished, the older pipelines of that ref are unlocked (`Ci::Ref`'s transition to `success` or
 *   `fixed`, `Ci::UnlockArtifactsService` with `before_pipeline`). A child pipeline has its parent's
 *   `ci_ref` (`Ci::Ref.ensure_for`: the same project and ref) but moves it not: `parent_pipeline` is a
 *   dangling source, outside the `ci_sources` of `Ci::Pipeline.last_finished_for_ref_id`. Being of the
 *   ref, the children of older pipelines are among `ci_ref.pipelines` and are unlocked with them.
 * - `ci_job_states.artifacts_expire_at`: a build's `artifacts_expire_at` once its archive is gone
 *   (destroyed on expiry or deleted): `ci_builds` keeps it where `ci_job_artifacts` lost its row.
 * `ADD COLUMN` has no `IF NOT EXISTS`: `done` finds the column when a store whose `user_version` was set
 * back applies this again.
 */
export default {
  sql: `
    CREATE TABLE IF NOT EXISTS project_ci_cd_settings (
      project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
      keep_latest_artifact INTEGER NOT NULL DEFAULT 1
    );
    CREATE TABLE IF NOT EXISTS ci_pipeline_artifact_locks (
      pipeline_id INTEGER PRIMARY KEY REFERENCES pipelines(id) ON DELETE CASCADE
    );
    ALTER TABLE ci_job_states ADD COLUMN artifacts_expire_at TEXT;
    CREATE INDEX IF NOT EXISTS ci_job_artifacts_expire_at ON ci_job_artifacts(expire_at)
      WHERE expire_at IS NOT NULL;
    CREATE TRIGGER IF NOT EXISTS pipelines_unlock_older AFTER UPDATE OF status ON pipelines
    WHEN NEW.status = 'success' AND OLD.status <> 'success' AND NEW.source <> 'parent_pipeline'
      AND NOT EXISTS (SELECT 1 FROM pipelines n WHERE n.project_id = NEW.project_id AND n.ref = NEW.ref
        AND n.tag = NEW.tag AND n.id > NEW.id AND n.source <> 'parent_pipeline'
        AND n.status IN ('success', 'failed', 'canceled', 'skipped'))
    BEGIN
      DELETE FROM ci_pipeline_artifact_locks WHERE pipeline_id IN (SELECT id FROM pipelines
        WHERE project_id = NEW.project_id AND ref = NEW.ref AND tag = NEW.tag AND id < NEW.id);
    END;
    -- A store made before this: each ref's latest successful pipeline and those after it are locked,
    -- as they would have been had their projects kept the latest artifacts (the default) all along.
    INSERT OR IGNORE INTO ci_pipeline_artifact_locks (pipeline_id)
      SELECT p.id FROM pipelines p WHERE p.id >= COALESCE((SELECT MAX(s.id) FROM pipelines s
        WHERE s.project_id = p.project_id AND s.ref = p.ref AND s.tag = p.tag AND s.status = 'success'
          AND s.source <> 'parent_pipeline'), 0);
  `,
  foreignKeysOff: true as const,
  done: "SELECT 1 FROM pragma_table_info('ci_job_states') WHERE name = 'artifacts_expire_at'",
}
