/**
 * Migration 9: the issue an issue was closed as a duplicate of (GitLab's `issues.duplicated_to_id`,
 * set by `Issues::DuplicateService`), shown as `_links.closed_as_duplicate_of`. No foreign key,
 * like `moved_to_id`: a deleted canonical issue reads as none.
 */
export default `
  ALTER TABLE issues ADD COLUMN duplicated_to_id INTEGER;
`
