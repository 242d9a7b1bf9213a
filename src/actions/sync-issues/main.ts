/* Bundle entry of sync-issues (dist/sync-issues/index.js): wiring only, see run.ts. */
import { runEntry } from '../entry.js'
import { run } from './run.js'

runEntry('sync-issues', run)
