import { emulatorClock } from '../../../src/server/domain/emulator-clock.js'

/** A start-up clock that moves on by `stepMs` at every read, as a busy machine's wall clock does. */
function steppingClock(startMs: number, stepMs: number) {
  let ms = startMs
  return { now: () => new Date((ms += stepMs)), nowMs: () => (ms += stepMs) }
}

describe('emulatorClock', () => {
  const T0 = Date.parse('2030-01-01T00:00:00.000Z')

  it('freezes at the instant asked for, however long the move took', () => {
    const clock = emulatorClock(steppingClock(Date.parse('2026-12-06T00:00:00Z'), 7))
    clock.freeze(new Date(T0))
    expect(clock.state()).toEqual({ now: '2030-01-01T00:00:00.000Z', frozen: true })
    expect(() => clock.set(new Date(T0 - 1))).toThrow(/before the server's time 2030-01-01T00:00:00.000Z/)
  })

  it('freezes where it stands without an instant, and runs on from there when unfrozen', () => {
    const clock = emulatorClock(steppingClock(T0, 5))
    clock.freeze()
    const frozen = clock.nowMs()
    expect(clock.nowMs()).toBe(frozen)
    clock.unfreeze()
    expect(clock.nowMs()).toBeGreaterThan(frozen)
    expect(clock.state().frozen).toBe(false)
  })

  it('writes where it keeps its moves only when what is kept changes: a reset with no move kept writes nothing', () => {
    let stored: string | undefined
    const writes: (string | undefined)[] = []
    const keep = {
      get: () => stored,
      set: (text: string | undefined) => void writes.push((stored = text)),
    }
    const clock = emulatorClock(steppingClock(T0, 1))
    clock.keepIn(keep)
    clock.reset()
    clock.reset()
    expect(writes).toEqual([])
    clock.advance(60_000)
    clock.reset()
    clock.reset()
    expect(writes).toEqual([expect.stringContaining('offset_ms'), undefined])
    // A move found where it is kept (a restart of a data directory) is removed by the next reset.
    stored = JSON.stringify({ offset_ms: 5 })
    const restarted = emulatorClock(steppingClock(T0, 1))
    restarted.keepIn(keep)
    restarted.reset()
    expect([writes.length, stored]).toEqual([3, undefined])
  })
})
