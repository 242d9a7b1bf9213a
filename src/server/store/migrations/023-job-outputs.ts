/**
 * Migration 23: what jobs leave behind (src/server/jobs/job-outputs.ts): the trace, the artifacts
 * archive (its zip in chunks, so that a download streams it, and the files it holds, for
 * `.../artifacts/*artifact_path`), and a job's own state beyond `ci_builds` (allow_failure, who played
 * it with which variables, when it was erased). `IF NOT EXISTS` so that a store whose `user_version`
 * was set back applies it again.
 */
export default `
  CREATE TABLE IF NOT EXISTS ci_job_traces (
    build_id INTEGER PRIMARY KEY REFERENCES ci_builds(id) ON DELETE CASCADE,
    trace TEXT NOT NULL
  );
  CREATE TABLE IF NOT EXISTS ci_job_artifacts (
    build_id INTEGER PRIMARY KEY REFERENCES ci_builds(id) ON DELETE CASCADE,
    size INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    expire_at TEXT
  );
  CREATE TABLE IF NOT EXISTS ci_job_artifact_chunks (
    build_id INTEGER NOT NULL REFERENCES ci_job_artifacts(build_id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (build_id, seq)
  );
  CREATE TABLE IF NOT EXISTS ci_job_artifact_entries (
    build_id INTEGER NOT NULL REFERENCES ci_job_artifacts(build_id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    content BLOB NOT NULL,
    PRIMARY KEY (build_id, path)
  );
  CREATE TABLE IF NOT EXISTS ci_job_states (
    build_id INTEGER PRIMARY KEY REFERENCES ci_builds(id) ON DELETE CASCADE,
    allow_failure INTEGER NOT NULL DEFAULT 0,
    user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    variables TEXT,
    erased_at TEXT,
    erased_by_id INTEGER REFERENCES users(id) ON DELETE SET NULL
  );
`
