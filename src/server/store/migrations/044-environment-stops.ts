/**
 * Migration 44: environments' stop actions and auto-stop (`environments.auto_stop_at`,
 * `deployments.on_stop`). `job_environments.auto_stop_in` is the seconds of the job's `auto_stop_in`
 * (its variables expanded) when it has one: 0 when that is `never`, zero or no duration
 * (`Environment#auto_stop_in=` then sets no time). The job trigger of migration 42 is made
 * again: a start job's success also sets `auto_stop_at` from its end plus those seconds
 * (`Deployments::UpdateEnvironmentService#renew_auto_stop_in`), and a stop clears it (`Environment`'s
 * `before_transition any => :stopped`). A second trigger renews it when a `prepare`, `verify` or `access`
 * job succeeds (`Environments::RecalculateAutoStopService`): from the job's own `auto_stop_in`, or, for
 * `prepare` and `access`, that of the job of the environment's last successful deployment. `ADD COLUMN`
 * has no `IF NOT EXISTS`: `done` finds the column when a store whose `user_version` was set back applies
 * this again.
 */
export default {
  sql: `
    ALTER TABLE environments ADD COLUMN auto_stop_at TEXT;
    ALTER TABLE deployments ADD COLUMN on_stop TEXT;
    ALTER TABLE job_environments ADD COLUMN auto_stop_in REAL;
    CREATE INDEX IF NOT EXISTS environments_auto_stop ON environments(auto_stop_at)
      WHERE auto_stop_at IS NOT NULL;
    DROP TRIGGER IF EXISTS environments_follow_job;
    CREATE TRIGGER environments_follow_job AFTER UPDATE OF status ON ci_builds
    WHEN NEW.status = 'success' AND OLD.status <> 'success'
    BEGIN
      UPDATE environments SET
        state = CASE (SELECT action FROM job_environments WHERE build_id = NEW.id)
          WHEN 'stop' THEN 'stopped' ELSE 'available' END,
        external_url = COALESCE((SELECT url FROM job_environments WHERE build_id = NEW.id AND action = 'start'),
          external_url),
        auto_stop_at = (SELECT CASE
          WHEN j.action = 'stop' OR j.auto_stop_in = 0 THEN NULL
          WHEN j.auto_stop_in IS NULL THEN environments.auto_stop_at
          ELSE strftime('%Y-%m-%dT%H:%M:%fZ', COALESCE(NEW.finished_at, environments.updated_at),
            printf('%+.3f seconds', j.auto_stop_in)) END
          FROM job_environments j WHERE j.build_id = NEW.id),
        updated_at = COALESCE(NEW.finished_at, updated_at)
      WHERE id = (SELECT environment_id FROM job_environments WHERE build_id = NEW.id AND action IN ('start', 'stop'));
    END;
    CREATE TRIGGER IF NOT EXISTS environments_auto_stop_renewed AFTER UPDATE OF status ON ci_builds
    WHEN NEW.status = 'success' AND OLD.status <> 'success'
    BEGIN
      UPDATE environments SET auto_stop_at = (SELECT CASE
          WHEN r.seconds IS NULL THEN environments.auto_stop_at
          WHEN r.seconds = 0 THEN NULL
          ELSE strftime('%Y-%m-%dT%H:%M:%fZ', COALESCE(NEW.finished_at, environments.updated_at),
            printf('%+.3f seconds', r.seconds)) END
        FROM (SELECT COALESCE(j.auto_stop_in, CASE WHEN j.action IN ('prepare', 'access') THEN
            (SELECT l.auto_stop_in FROM deployments d JOIN job_environments l ON l.build_id = d.deployable_id
             WHERE d.environment_id = j.environment_id AND d.status = 'success' ORDER BY d.id DESC LIMIT 1)
            END) AS seconds
          FROM job_environments j WHERE j.build_id = NEW.id) r)
      WHERE id = (SELECT environment_id FROM job_environments
        WHERE build_id = NEW.id AND action IN ('prepare', 'verify', 'access'));
    END;
  `,
  foreignKeysOff: true as const,
  done: "SELECT 1 FROM pragma_table_info('environments') WHERE name = 'auto_stop_at'",
}
