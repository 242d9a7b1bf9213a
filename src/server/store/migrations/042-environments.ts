/**
 * Migration 42: environments and deployments (GitLab's `environments`, `deployments` and
 * `job_environments`). An environment's name and slug are unique in its project; a deployment's `iid`
 * counts per project; `deployable_id` is the job that deploys (none for a deployment made through the
 * API; GitLab keeps the row when the job goes, so `SET NULL`). `job_environments` links a job to the
 * environment its `environment:` names, with the action and the url as written.
 *
 * Two triggers move what follows a job, whatever moved the job (runner, cancel, retry, play): its
 * deployment takes the job's status once the job runs, skips or ends (`Ci::Build`'s transitions calling
 * `Deployment#run`, `succeed`, `drop`, `cancel`, `skip`), finishing when the job does; a successful job
 * makes its environment available again (`start`) or stops it (`action: stop`), and a start job's `url`
 * becomes the environment's `external_url` (`Deployments::UpdateEnvironmentService`). `IF NOT EXISTS`:
 * a store whose `user_version` was set back applies this again.
 */
export default `
  CREATE TABLE IF NOT EXISTS environments (
    id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    slug TEXT NOT NULL,
    external_url TEXT,
    tier TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'available',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (project_id, name),
    UNIQUE (project_id, slug)
  );
  CREATE TABLE IF NOT EXISTS deployments (
    id INTEGER PRIMARY KEY,
    iid INTEGER NOT NULL,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    environment_id INTEGER NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
    ref TEXT NOT NULL,
    tag INTEGER NOT NULL,
    sha TEXT NOT NULL,
    user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    deployable_id INTEGER REFERENCES ci_builds(id) ON DELETE SET NULL,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    finished_at TEXT,
    UNIQUE (project_id, iid)
  );
  CREATE INDEX IF NOT EXISTS deployments_by_environment ON deployments(environment_id, id);
  CREATE INDEX IF NOT EXISTS deployments_by_deployable ON deployments(deployable_id) WHERE deployable_id IS NOT NULL;
  CREATE TABLE IF NOT EXISTS job_environments (
    build_id INTEGER PRIMARY KEY REFERENCES ci_builds(id) ON DELETE CASCADE,
    environment_id INTEGER NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
    action TEXT NOT NULL,
    url TEXT
  );
  CREATE TRIGGER IF NOT EXISTS deployments_follow_job AFTER UPDATE OF status ON ci_builds
  WHEN NEW.status IN ('running', 'success', 'failed', 'canceled', 'skipped') AND NEW.status <> OLD.status
  BEGIN
    UPDATE deployments SET status = NEW.status,
      updated_at = COALESCE(NEW.finished_at, NEW.started_at, updated_at),
      finished_at = CASE WHEN NEW.status IN ('success', 'failed', 'canceled') THEN NEW.finished_at END
    WHERE deployable_id = NEW.id AND status <> NEW.status;
  END;
  CREATE TRIGGER IF NOT EXISTS environments_follow_job AFTER UPDATE OF status ON ci_builds
  WHEN NEW.status = 'success' AND OLD.status <> 'success'
  BEGIN
    UPDATE environments SET
      state = CASE (SELECT action FROM job_environments WHERE build_id = NEW.id)
        WHEN 'stop' THEN 'stopped' ELSE 'available' END,
      external_url = COALESCE((SELECT url FROM job_environments WHERE build_id = NEW.id AND action = 'start'),
        external_url),
      updated_at = COALESCE(NEW.finished_at, updated_at)
    WHERE id = (SELECT environment_id FROM job_environments WHERE build_id = NEW.id AND action IN ('start', 'stop'));
  END;
`
