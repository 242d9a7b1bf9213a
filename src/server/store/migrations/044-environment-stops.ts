/**
 * Migration 44: environments' stop actions and auto-stop (`environments.auto_stop_at`,
 * `deployments.on_stop`). `job_environments.auto_stop_in` is the seconds of the job's `auto_stop_in`
 * (its variables expanded) when it has one: 0 when that is `never`, zero or no duration
 * (`Environment#auto_stop_in=` then sets no time). The job trigger of migration 42 is made
 * again: a start job's success also sets `auto_stop_at` from its end plus those seconds
 * (`Deployments::UpdateEnvironmentService#renew_auto_stop_in`), and a stop clears it (`Environment`'s
 * `before_transition any => :stopped`). `ADD COLUMN` has no `IF NOT EXISTS`: `done` finds the column
 * when a store whose `user_version` was set back applies this again.
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
  `,
  foreignKeysOff: true as const,
  done: "SELECT 1 FROM pragma_table_info('environments') WHERE name = 'auto_stop_at'",
}
