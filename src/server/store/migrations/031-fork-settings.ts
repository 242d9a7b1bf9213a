/**
 * Migration 31: two fork settings on `project_settings`. `import_status` is the project's own
 * (`project.import_state.status`, lib/api/entities/project.rb): a fork reads `finished` once its
 * repository is copied and keeps it after `DELETE /projects/:id/fork`, so it cannot be derived from
 * the fork network. `mr_default_target_self` (`project_settings.mr_default_target_self`, default
 * false) is whether a fork's merge requests target the fork itself. Forks made before this
 * migration are marked `finished`. `ADD COLUMN` has no `IF NOT EXISTS`: `done` finds the columns when
 * a store whose `user_version` was set back applies this again.
 */
export default {
  sql: `
    ALTER TABLE project_settings ADD COLUMN import_status TEXT NOT NULL DEFAULT 'none';
    ALTER TABLE project_settings ADD COLUMN mr_default_target_self INTEGER NOT NULL DEFAULT 0;
    UPDATE project_settings SET import_status = 'finished' WHERE project_id IN (
      SELECT m.project_id FROM fork_network_members m JOIN fork_networks n ON n.id = m.fork_network_id
      WHERE n.root_project_id IS NOT m.project_id
    );
  `,
  foreignKeysOff: true as const,
  done: "SELECT 1 FROM pragma_table_info('project_settings') WHERE name = 'mr_default_target_self'",
}
