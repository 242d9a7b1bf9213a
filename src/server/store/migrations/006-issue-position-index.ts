/**
 * Migration 6: issues indexed by project and `relative_position` (performance only). The
 * exporter walks a project's issues in position order and issue creation reads the project's
 * highest position; without the index both scanned every issue of the project (the export of
 * 100,000 issues was quadratic: one full scan and sort per batch of 100).
 */
export default `
  CREATE INDEX issues_by_project_position ON issues(project_id, relative_position);
`
