import type { ApiContext } from './context.js'

/** Routes for project aliases (issue 5): not implemented yet. */
export function aliasRoutes(_api: ApiContext): void {}
