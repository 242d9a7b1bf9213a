import type { ApiContext } from './context.js'

/** Routes for issue sub-resources: reorder, move, subscriptions, to-dos, notes, time tracking, relations, metric images (issue 3): not implemented yet. */
export function issueDetailRoutes(_api: ApiContext): void {}
