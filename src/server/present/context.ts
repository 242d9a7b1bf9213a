/** What presenters need to know about the running instance. */
export interface Instance {
  /** External URL (`--base-url`), no trailing slash; web URLs hang off it, the API under `/api/v4`. */
  baseUrl: string
  edition: 'ce' | 'ee'
  /** Reported by `GET /version` and used for release-tied behaviour. */
  version: string
}

export const apiUrl = (instance: Instance) => `${instance.baseUrl}/api/v4`
