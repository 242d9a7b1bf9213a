import type { ApiContext } from './context.js'

/** Routes for project export and import (issue 4): not implemented yet. */
export function transferRoutes(_api: ApiContext): void {}
