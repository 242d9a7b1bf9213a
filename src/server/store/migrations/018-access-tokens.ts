/**
 * Migration 18: impersonation, project and group access tokens, and when tokens were last used.
 * - `access_token_kinds`: a token's `impersonation` flag and `description` (a token without a row is
 *   a plain personal access token with no description).
 * - `bot_users`: the bot user a project (`project`) or group (`namespace`) access token signs in as,
 *   and its resource (`app/services/resource_access_tokens/create_service.rb`).
 * - `token_last_used`: `last_used_at` of every token, seeded ones too (their details row is optional).
 * `IF NOT EXISTS`: a store whose `user_version` was set back (as pipeline-tags.test.ts does) applies it again.
 */
export default `
  CREATE TABLE IF NOT EXISTS access_token_kinds (
    token_id INTEGER PRIMARY KEY REFERENCES personal_access_tokens(id) ON DELETE CASCADE,
    impersonation INTEGER NOT NULL DEFAULT 0,
    description TEXT
  );
  CREATE TABLE IF NOT EXISTS bot_users (
    user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    source_type TEXT NOT NULL CHECK (source_type IN ('namespace', 'project')),
    source_id INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS bot_users_by_source ON bot_users(source_type, source_id);
  CREATE TABLE IF NOT EXISTS token_last_used (
    token_id INTEGER PRIMARY KEY REFERENCES personal_access_tokens(id) ON DELETE CASCADE,
    last_used_at TEXT NOT NULL
  );
`
