/*
 * The kept JSON of issue records (src/server/services/issues/fragments.ts) is bounded: past `max`
 * records the first kept go first, those of the views kept first (an earlier day's) before others;
 * and they hold no memory outside the heap.
 */
import { issueFragments } from '../../../../src/server/services/issues/fragments.js'
import type { IssueRow } from '../../../../src/server/store/issues.js'
import type { Store } from '../../../../src/server/store/index.js'
import { storeWithIssues } from '../../../support/seeded-store.js'
import { arrayBuffersKiBOf } from '../../../support/spawned.js'

let store: Store
let ids: number[]

beforeEach(() => {
  store = storeWithIssues(['one', 'two', 'three'])
  const project = store.projects.byPath('root/app')!
  ids = [1, 2, 3].map((iid) => store.issues.byIid(project.id, iid)!.id)
})
afterEach(() => store.close())

/** Which of `ids` had to be presented (were not kept) for `view`. */
const presented = (fragments: ReturnType<typeof issueFragments>, view: string, wanted: number[]) => {
  const made: number[] = []
  fragments.json(wanted, view, (rows: IssueRow[]) => rows.map((r) => (made.push(r.id), `{"id":${r.id}}`)))
  return made
}

describe('kept issue JSON', () => {
  it('is made once per issue and view', () => {
    const fragments = issueFragments(store)
    expect(presented(fragments, 'a', ids)).toEqual(ids)
    expect(presented(fragments, 'a', ids)).toEqual([])
    expect(presented(fragments, 'b', ids)).toEqual(ids)
  })

  it('keeps at most `max` records, the first kept out first', () => {
    const fragments = issueFragments(store, 2)
    const [one, two, three] = ids as [number, number, number]
    expect(presented(fragments, 'a', [one, two, three])).toEqual([one, two, three])
    expect(presented(fragments, 'a', [two, three])).toEqual([])
    expect(presented(fragments, 'a', [one])).toEqual([one])
  })

  it('lets the records of the view kept first go first', () => {
    const fragments = issueFragments(store, 2)
    const [one, two, three] = ids as [number, number, number]
    presented(fragments, 'yesterday', [one])
    presented(fragments, 'today', [two, three])
    expect(presented(fragments, 'today', [two, three])).toEqual([])
    expect(presented(fragments, 'yesterday', [one])).toEqual([one])
  })
})

describe('memory of kept issue JSON', () => {
  /*
   * Kept records are strings on the heap. As Buffers from `Buffer.from` they were slices of Node's
   * shared 64 KiB pool: each held the whole slab it was cut from, where each request's short-lived
   * Buffers were cut too (280 MB of ArrayBuffers for 16,384 records under the mixed load). As
   * Buffers of their own they held their size outside the heap, which V8 counts towards starting
   * its next full collection whenever a record is dropped and made again. Measured in a child
   * process, after a full collection.
   */
  it('holds no memory outside the heap, whatever Buffers are made around them', async () => {
    const kib = await arrayBuffersKiBOf('fragments-memory-child.ts', '2000')
    // 2,000 records of about 1 KiB each: 2.2 MB as Buffers of their own, 19.7 MB as pool slices.
    expect(kib).toBeLessThan(1024)
  }, 60_000)
})
