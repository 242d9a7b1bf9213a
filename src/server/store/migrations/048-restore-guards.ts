/**
 * Migration 48: every trigger of the main schema stays still while state is put back. A named
 * snapshot's restore, a reset's full copy-back and its undo log write the snapshot's rows with plain
 * INSERT and UPDATE; a trigger that fired on them added what the snapshot never held (a restored
 * deployment's move recorded, then sent to the Deployment Hooks as new) or moved rows the copy then
 * set again. The triggers of migrations 42 to 46 are made again, the same but for one more `WHEN`
 * condition: no `restoring` row in `emulator_meta`, which store/restoring.ts writes for the time of a
 * restore, inside its transaction (our choice: GitLab has no such restore). A flag row, not a TEMP table
 * (a trigger of the main schema may not read one) nor an SQL function of the connection (any other
 * connection, a `sqlite3` shell on the data directory, could then write none of these tables). A
 * trigger a later migration makes carries the same condition (test/server/restore-triggers.test.ts).
 * `DROP ... IF EXISTS` then `CREATE`: a store whose `user_version` was set back applies this again.
 */
export default `
  DROP TRIGGER IF EXISTS deployments_follow_job;
  CREATE TRIGGER deployments_follow_job AFTER UPDATE OF status ON ci_builds
  WHEN NEW.status IN ('running', 'success', 'failed', 'canceled', 'skipped') AND NEW.status <> OLD.status
    AND NOT EXISTS (SELECT 1 FROM emulator_meta WHERE key = 'restoring')
  BEGIN
    UPDATE deployments SET status = NEW.status,
      updated_at = COALESCE(NEW.finished_at, NEW.started_at, updated_at),
      finished_at = CASE WHEN NEW.status IN ('success', 'failed', 'canceled') THEN NEW.finished_at END
    WHERE deployable_id = NEW.id AND status <> NEW.status;
  END;

  DROP TRIGGER IF EXISTS environments_follow_job;
  CREATE TRIGGER environments_follow_job AFTER UPDATE OF status ON ci_builds
  WHEN NEW.status = 'success' AND OLD.status <> 'success'
    AND NOT EXISTS (SELECT 1 FROM emulator_meta WHERE key = 'restoring')
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

  DROP TRIGGER IF EXISTS environments_auto_stop_renewed;
  CREATE TRIGGER environments_auto_stop_renewed AFTER UPDATE OF status ON ci_builds
  WHEN NEW.status = 'success' AND OLD.status <> 'success'
    AND NOT EXISTS (SELECT 1 FROM emulator_meta WHERE key = 'restoring')
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

  DROP TRIGGER IF EXISTS deployment_transitions_on_update;
  CREATE TRIGGER deployment_transitions_on_update AFTER UPDATE OF status ON deployments
  WHEN NEW.status <> OLD.status AND NEW.status IN ('running', 'success', 'failed', 'canceled')
    AND EXISTS (SELECT 1 FROM web_hooks WHERE deployment_events = 1)
    AND NOT EXISTS (SELECT 1 FROM emulator_meta WHERE key = 'restoring')
  BEGIN
    INSERT INTO deployment_transitions (deployment_id, status, changed_at)
    VALUES (NEW.id, NEW.status, NEW.updated_at);
  END;

  DROP TRIGGER IF EXISTS deployment_transitions_on_insert;
  CREATE TRIGGER deployment_transitions_on_insert AFTER INSERT ON deployments
  WHEN NEW.status IN ('running', 'success', 'failed', 'canceled')
    AND EXISTS (SELECT 1 FROM web_hooks WHERE deployment_events = 1)
    AND NOT EXISTS (SELECT 1 FROM emulator_meta WHERE key = 'restoring')
  BEGIN
    INSERT INTO deployment_transitions (deployment_id, status, changed_at)
    VALUES (NEW.id, NEW.status, NEW.updated_at);
  END;

  DROP TRIGGER IF EXISTS pipelines_unlock_older;
  CREATE TRIGGER pipelines_unlock_older AFTER UPDATE OF status ON pipelines
  WHEN NEW.status = 'success' AND OLD.status <> 'success' AND NEW.source <> 'parent_pipeline'
    AND NOT EXISTS (SELECT 1 FROM pipelines n WHERE n.project_id = NEW.project_id AND n.ref = NEW.ref
      AND n.tag = NEW.tag AND n.id > NEW.id AND n.source <> 'parent_pipeline'
      AND n.status IN ('success', 'failed', 'canceled', 'skipped'))
    AND NOT EXISTS (SELECT 1 FROM emulator_meta WHERE key = 'restoring')
  BEGIN
    DELETE FROM ci_pipeline_artifact_locks WHERE pipeline_id IN (SELECT id FROM pipelines
      WHERE project_id = NEW.project_id AND ref = NEW.ref AND tag = NEW.tag AND id < NEW.id);
  END;
`
