/**
 * Migration 14: users and tokens made through the API.
 * - `user_profiles`: what `POST`/`PUT /users` set besides the `users` row (`bio`, `can_create_group`,
 *   `projects_limit`, `external`, `private_profile`); a user without a row has GitLab's defaults.
 * - `personal_access_token_details`: a token's `scopes` (a JSON array) and `last_used_at`; a seeded
 *   token has no row and keeps every scope.
 * `IF NOT EXISTS`: a store whose `user_version` was set back (as pipeline-tags.test.ts does) applies it again.
 */
export default `
  CREATE TABLE IF NOT EXISTS user_profiles (
    user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    bio TEXT NOT NULL DEFAULT '',
    can_create_group INTEGER NOT NULL DEFAULT 1,
    projects_limit INTEGER NOT NULL DEFAULT 100000,
    external INTEGER NOT NULL DEFAULT 0,
    private_profile INTEGER NOT NULL DEFAULT 0
  );
  CREATE TABLE IF NOT EXISTS personal_access_token_details (
    token_id INTEGER PRIMARY KEY REFERENCES personal_access_tokens(id) ON DELETE CASCADE,
    scopes TEXT NOT NULL,
    last_used_at TEXT
  );
`
