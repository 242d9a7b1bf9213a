/**
 * Migration 11: who subscribed to which label (`POST /projects/:id/labels/:label_id/subscribe`;
 * GitLab's `subscriptions` rows whose subscribable is a label).
 */
export default `
  CREATE TABLE label_subscriptions (
    label_id INTEGER NOT NULL REFERENCES labels(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    PRIMARY KEY (label_id, user_id)
  );
`
