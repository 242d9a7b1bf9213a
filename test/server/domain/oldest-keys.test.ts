import { oldestKeys } from '../../../src/server/domain/oldest-keys.js'

/** Drops the oldest key of `map` until `n` are left, as a bounded cache does; returns those dropped. */
const dropTo = (
  map: Map<number, string>,
  n: number,
  oldestOf: (m: Map<number, string>) => number | undefined,
) => {
  const dropped: number[] = []
  while (map.size > n) {
    const key = oldestOf(map) as number
    dropped.push(key)
    map.delete(key)
  }
  return dropped
}

describe('oldestKeys', () => {
  it('gives keys in insertion order as they are dropped, skipping those deleted and reaching those added', () => {
    const oldestOf = oldestKeys<number>()
    const map = new Map([1, 2, 3, 4].map((k) => [k, `${k}`]))
    expect(dropTo(map, 3, oldestOf)).toEqual([1])
    map.delete(3) // deleted by the cache itself (an entry a write made stale)
    map.set(5, '5')
    map.set(2, 'two') // set again: keeps its place
    expect(dropTo(map, 1, oldestOf)).toEqual([2, 4])
    map.set(6, '6')
    map.set(4, 'again') // added after being dropped: the newest now
    expect(dropTo(map, 1, oldestOf)).toEqual([5, 6])
    expect([...map.keys()]).toEqual([4])
  })

  it('starts over once past the end, and answers undefined for an empty map', () => {
    const oldestOf = oldestKeys<number>()
    const map = new Map([[1, 'a']])
    expect(dropTo(map, 0, oldestOf)).toEqual([1])
    expect(oldestOf(map)).toBeUndefined()
    map.set(7, 'b')
    map.set(8, 'c')
    expect(dropTo(map, 0, oldestOf)).toEqual([7, 8])
  })

  it('keeps one place per map', () => {
    const oldestOf = oldestKeys<number>()
    const a = new Map([
      [1, 'a'],
      [2, 'b'],
    ])
    const b = new Map([
      [3, 'c'],
      [4, 'd'],
    ])
    expect([oldestOf(a), oldestOf(b)]).toEqual([1, 3])
    a.delete(1)
    b.delete(3)
    expect([oldestOf(a), oldestOf(b)]).toEqual([2, 4])
  })
})
