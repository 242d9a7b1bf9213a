/**
 * Migration 45: environments' `description` (null when none) and `auto_stop_setting` (`always`, the
 * default, or `with_action`: `Environment#stop_with_actions!` then stops it only through stop actions).
 * The renewal trigger of migration 44 is made again so that a renewal that moves `auto_stop_at` moves
 * `updated_at` with it, as `Environments::RecalculateAutoStopService`'s `update!` does; one that leaves
 * it (`never` when none was set) leaves both; the last successful deployment whose job's `auto_stop_in` a
 * `prepare` or `access` job takes is `Environment#last_deployment`, the one that finished last. `ADD
 * COLUMN` has no `IF NOT EXISTS`: `done` finds the column when a store whose `user_version` was set back
 * applies this again.
 */
export default {
  sql: `
    ALTER TABLE environments ADD COLUMN description TEXT;
    ALTER TABLE environments ADD COLUMN auto_stop_setting TEXT NOT NULL DEFAULT 'always';
    DROP TRIGGER IF EXISTS environments_auto_stop_renewed;
    CREATE TRIGGER environments_auto_stop_renewed AFTER UPDATE OF status ON ci_builds
    WHEN NEW.status = 'success' AND OLD.status <> 'success'
    BEGIN
      UPDATE environments SET (auto_stop_at, updated_at) = (SELECT x.at,
          CASE WHEN x.at IS environments.auto_stop_at THEN environments.updated_at
            ELSE COALESCE(NEW.finished_at, environments.updated_at) END
        FROM (SELECT CASE
            WHEN r.seconds IS NULL THEN environments.auto_stop_at
            WHEN r.seconds = 0 THEN NULL
            ELSE strftime('%Y-%m-%dT%H:%M:%fZ', COALESCE(NEW.finished_at, environments.updated_at),
              printf('%+.3f seconds', r.seconds)) END AS at
          FROM (SELECT COALESCE(j.auto_stop_in, CASE WHEN j.action IN ('prepare', 'access') THEN
              (SELECT l.auto_stop_in FROM deployments d JOIN job_environments l ON l.build_id = d.deployable_id
               WHERE d.environment_id = j.environment_id AND d.status = 'success'
               ORDER BY d.finished_at DESC, d.id DESC LIMIT 1)
              END) AS seconds
            FROM job_environments j WHERE j.build_id = NEW.id) r) x)
      WHERE id = (SELECT environment_id FROM job_environments
        WHERE build_id = NEW.id AND action IN ('prepare', 'verify', 'access'));
    END;
  `,
  foreignKeysOff: true as const,
  done: "SELECT 1 FROM pragma_table_info('environments') WHERE name = 'auto_stop_setting'",
}
