/**
 * Migration 17: memberships made through the members API.
 * - `member_terms`: a membership's `expires_at` (a date) and who made it (`created_by_id`); seeded
 *   memberships have no row (no expiry, no creator). It goes with its membership (and so with the user).
 * `IF NOT EXISTS`: a store whose `user_version` was set back (as pipeline-tags.test.ts does) applies it again.
 */
export default `
  CREATE TABLE IF NOT EXISTS member_terms (
    source_type TEXT NOT NULL,
    source_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    expires_at TEXT,
    created_by_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    PRIMARY KEY (source_type, source_id, user_id),
    FOREIGN KEY (source_type, source_id, user_id)
      REFERENCES members(source_type, source_id, user_id) ON DELETE CASCADE
  );
`
