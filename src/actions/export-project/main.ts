/* Bundle entry of export-project (dist/export-project/index.js): wiring only, see run.ts. */
import { runEntry } from '../entry.js'
import { run } from './run.js'

runEntry('export-project', run)
