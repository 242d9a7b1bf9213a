/**
 * A path pattern of the request log's and the faults' `path` (ours; GitLab has none): with a `*`,
 * a glob over the whole path, `*` within one segment and `**` across segments
 * (`/api/v4/projects/*` one segment below, `/api/v4/projects/**` any depth); without one, the path itself or anything
 * under it (`/api/v4/projects/1` matches `/api/v4/projects/1/issues`, not `/api/v4/projects/12`).
 */
export function pathPattern(pattern: string): (path: string) => boolean {
  if (!pattern.includes('*')) {
    const under = pattern.endsWith('/') ? pattern : `${pattern}/`
    return (path) => path === pattern || path.startsWith(under)
  }
  const source = pattern
    .split(/(\*\*|\*)/)
    .map((part) =>
      part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('')
  const re = new RegExp(`^${source}$`)
  return (path) => re.test(path)
}

/** The path of a request's URL, without its query. */
export const pathOf = (url: string): string => {
  const q = url.indexOf('?')
  return q < 0 ? url : url.slice(0, q)
}
