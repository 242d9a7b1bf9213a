/**
 * Migration 11: who subscribed to which label (`POST /projects/:id/labels/:label_id/subscribe`;
 * GitLab's `subscriptions` rows whose subscribable is a label).
 * `IF NOT EXISTS`: a store whose `user_version` was set back (as pipeline-tags.test.ts does) applies it again.
 */
export default `
  CREATE TABLE IF NOT EXISTS label_subscriptions (
    label_id INTEGER NOT NULL REFERENCES labels(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    PRIMARY KEY (label_id, user_id)
  );
`
