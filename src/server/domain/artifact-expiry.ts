/**
 * Whether a build's archive has passed its `expire_at` at `now` (ISO times; `Ci::Build#artifacts_expired?`):
 * the entity then hides `artifacts_file` and keep answers 404, even while a locked pipeline keeps the file.
 */
export const artifactExpired = (expireAt: string | null, now: string): boolean =>
  expireAt !== null && expireAt < now
