/** A page's path under a project or group's full path: each segment URL-encoded, `-/` before a resource. */
export function pathOf(fullPath: string, ...resource: (string | number)[]): string {
  const base = `/${fullPath.split('/').map(encodeURIComponent).join('/')}`
  return resource.length === 0
    ? base
    : `${base}/-/${resource.map((r) => encodeURIComponent(String(r))).join('/')}`
}

/** A user's profile page. */
export const userPath = (username: string) => `/${encodeURIComponent(username)}`

/** A group's page (GitLab serves groups under `/groups/`). */
export const groupPath = (fullPath: string) => `/groups${pathOf(fullPath)}`

/** A positive page number from a query value; 1 otherwise. */
export function pageNumber(raw: unknown): number {
  const n = typeof raw === 'string' && /^\d{1,6}$/.test(raw) ? Number(raw) : 1
  return n >= 1 ? n : 1
}

/**
 * A repository page's path (`/-/tree/<ref>/<path>`, `/-/blob/...`, `/-/raw/...`, `/-/commit/<sha>`):
 * the ref's and the file path's segments each URL-encoded, their slashes kept.
 */
export function repoPath(fullPath: string, kind: string, ref: string, path = ''): string {
  const segments = (s: string) =>
    s
      .split('/')
      .filter((x) => x !== '')
      .map(encodeURIComponent)
  return [pathOf(fullPath, kind), ...segments(ref), ...segments(path)].join('/')
}
