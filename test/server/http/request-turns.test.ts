import { requestTurns } from '../../../src/server/http/request-turns.js'

/*
 * The turns requests run in (src/server/http/request-turns.ts): a request goes on at once while
 * the budget lasts; once a handler has spent it, the requests after it wait, in arrival order, for
 * later turns of the event loop, so that the loop accepts and reads between them.
 */

/** Keeps the thread busy for `ms`: a handler that spends the budget. */
const spend = (ms: number) => {
  const until = performance.now() + ms
  while (performance.now() < until);
}
/** A budget no pause of a loaded machine spends by itself, between two calls that expect it unspent. */
const BUDGET = 50
/** One turn of the event loop: the check phase's immediates scheduled before this one have run. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('request turns', () => {
  it('runs requests at once while the budget lasts, across turns of the loop', async () => {
    const turns = requestTurns(60_000)
    const ran: string[] = []
    turns.run(() => ran.push('a'))
    turns.run(() => ran.push('b'))
    expect(ran).toEqual(['a', 'b'])
    await turn()
    turns.run(() => ran.push('c'))
    expect(ran).toEqual(['a', 'b', 'c'])
  })

  it('makes the requests after a spent budget wait for a later turn, in arrival order', async () => {
    const turns = requestTurns(BUDGET)
    const ran: string[] = []
    turns.run(() => {
      ran.push('a')
      spend(BUDGET + 10)
    })
    turns.run(() => ran.push('b'))
    turns.run(() => ran.push('c'))
    expect(ran).toEqual(['a'])
    await turn()
    expect(ran).toEqual(['a', 'b', 'c'])
    // The new budget goes on at once.
    turns.run(() => ran.push('d'))
    expect(ran).toEqual(['a', 'b', 'c', 'd'])
  })

  it('leaves the rest of the waiting requests to the next turn when one spends the new budget', async () => {
    const turns = requestTurns(BUDGET)
    const ran: string[] = []
    turns.run(() => spend(BUDGET + 10))
    turns.run(() => {
      ran.push('b')
      spend(BUDGET + 10)
    })
    turns.run(() => ran.push('c'))
    await turn()
    expect(ran).toEqual(['b'])
    // Arriving while others wait, it waits behind them even though no budget is spent yet.
    turns.run(() => ran.push('d'))
    expect(ran).toEqual(['b'])
    await turn()
    expect(ran).toEqual(['b', 'c', 'd'])
  })

  it('opens a new budget on the next turn of the loop, however long ago the last one opened', async () => {
    const turns = requestTurns(BUDGET)
    const ran: string[] = []
    turns.run(() => ran.push('a'))
    await turn()
    spend(BUDGET + 10)
    turns.run(() => ran.push('b'))
    expect(ran).toEqual(['a', 'b'])
  })
})
