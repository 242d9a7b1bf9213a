/* Bundle entry of trigger-pipeline (dist/trigger-pipeline/index.js): wiring only, see run.ts. */
import { runEntry } from '../entry.js'
import { run } from './run.js'

runEntry('trigger-pipeline', run)
