/**
 * Migration 10: issues indexed by project, state and creation (performance only). The default
 * list (`state=opened`, newest first, `app/finders/issues_finder.rb`) walked every issue of the
 * project in `issues_by_project_created` and read each row to test its state; this index walks
 * only the issues of the wanted state, already in the list's order. `IF NOT EXISTS`: a store whose
 * `user_version` was set back (as test/server/routes/pipeline-tags.test.ts does) applies it again.
 */
export default `
  CREATE INDEX IF NOT EXISTS issues_by_project_state_created ON issues(project_id, state, created_at, id);
`
