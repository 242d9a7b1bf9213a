/*
 * Run by test/server/services/issues/fragments.test.ts in its own process (arrayBuffersKiBOf, with
 * --expose-gc, its heap untouched by Jest): keeps COUNT issue records in `issueFragments` while
 * making, between two records, the short-lived Buffers a request makes, then collects all garbage
 * and prints what ArrayBuffers hold beyond what they held before the first record, in KiB. (Not the
 * total: loading this file through tsx with a cold cache leaves about 1 MB of esbuild's own buffers.)
 */
import { issueFragments } from '../../src/server/services/issues/fragments.js'
import type { IssueRow } from '../../src/server/store/issues.js'
import { openStore } from '../../src/server/store/index.js'

const count = Number(process.argv[2])
const store = openStore(':memory:')
const fragments = issueFragments(store)
const record = (id: number) => JSON.stringify({ id, title: `Issue ${id}`, description: 'x'.repeat(1000) })
const rows = (ids: number[]) => ids.map((id) => ({ id, duplicated_to_id: null }) as IssueRow)
const gc = (globalThis as { gc?: () => void }).gc
gc?.()
gc?.()
const before = process.memoryUsage().arrayBuffers
let garbage = 0
for (let id = 1; id <= count; id++) {
  fragments.json([id], 'view', (made) => made.map((row) => record(row.id)), rows)
  // A request's own Buffers: its body, its answer's bytes.
  for (let i = 0; i < 8; i++) garbage += Buffer.from(record(-id)).length
}
// Twice: V8 sweeps dead ArrayBuffers concurrently after a collection, and the next one finishes it.
gc?.()
gc?.()
process.stdout.write(`${Math.max(0, process.memoryUsage().arrayBuffers - before) >> 10} ${garbage}\n`)
store.close()
