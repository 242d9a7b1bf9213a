/**
 * Migration 7: the git objects behind the refs (the emulator's object database). A ref's SHA is a
 * real commit: seeded refs get a generated empty commit, imported ones the commit of the archive's
 * `project.bundle`. Content-addressed and shared by every project, as a pool repository is; the
 * exporter reads the commits back to write `project.bundle`.
 */
export default `
  CREATE TABLE git_objects (
    sha TEXT PRIMARY KEY,
    type TEXT NOT NULL CHECK (type IN ('commit', 'tree')),
    body BLOB NOT NULL
  ) WITHOUT ROWID;
`
