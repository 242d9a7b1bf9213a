/**
 * Migration 43: deployment webhooks (`deployment_events` on `web_hooks`, GitLab's `Deployment Hook`).
 * `deployment_transitions` records each move of a deployment to `running`, `success`, `failed` or
 * `canceled` (`Deployment`'s `after_transition`s that run `Deployments::HooksWorker`), whatever made it:
 * the job triggers of migration 42 or the deployments API, a deployment made with its status included.
 * The service layer takes the rows out in the write that made them and hands them to the hooks; rows are
 * written only while some hook takes deployment events. `ADD COLUMN` has no `IF NOT EXISTS`: `done`
 * finds the column when a store whose `user_version` was set back applies this again.
 */
export default {
  sql: `
    ALTER TABLE web_hooks ADD COLUMN deployment_events INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE IF NOT EXISTS deployment_transitions (
      id INTEGER PRIMARY KEY,
      deployment_id INTEGER NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      status TEXT NOT NULL,
      changed_at TEXT NOT NULL
    );
    CREATE TRIGGER IF NOT EXISTS deployment_transitions_on_update AFTER UPDATE OF status ON deployments
    WHEN NEW.status <> OLD.status AND NEW.status IN ('running', 'success', 'failed', 'canceled')
      AND EXISTS (SELECT 1 FROM web_hooks WHERE deployment_events = 1)
    BEGIN
      INSERT INTO deployment_transitions (deployment_id, status, changed_at)
      VALUES (NEW.id, NEW.status, NEW.updated_at);
    END;
    CREATE TRIGGER IF NOT EXISTS deployment_transitions_on_insert AFTER INSERT ON deployments
    WHEN NEW.status IN ('running', 'success', 'failed', 'canceled')
      AND EXISTS (SELECT 1 FROM web_hooks WHERE deployment_events = 1)
    BEGIN
      INSERT INTO deployment_transitions (deployment_id, status, changed_at)
      VALUES (NEW.id, NEW.status, NEW.updated_at);
    END;
  `,
  foreignKeysOff: true as const,
  done: "SELECT 1 FROM pragma_table_info('web_hooks') WHERE name = 'deployment_events'",
}
