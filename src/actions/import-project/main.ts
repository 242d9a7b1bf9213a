/* Bundle entry of import-project (dist/import-project/index.js): wiring only, see run.ts. */
import { runEntry } from '../entry.js'
import { run } from './run.js'

runEntry('import-project', run)
