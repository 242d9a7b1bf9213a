import { FaultRules } from './fault-rules.js'
import { DEFAULT_REQUEST_LOG_SIZE, RequestRing } from './request-ring.js'

/** How the request log and the faults start (`serve --request-log-size`, `--log-bodies`, `--faults`). */
export interface InstrumentOptions {
  /** `size`: requests kept (default 1000; 0 keeps none); `bodies`: keep bodies too (default false). */
  requestLog?: { size?: number; bodies?: boolean }
  /** Fault rules in force from the start (docs/server.md, Faults). */
  faults?: readonly unknown[]
}

/** The request log and the fault rules: in memory only, kept across resets, gone at a restart. */
export interface Instruments {
  requests: RequestRing
  faults: FaultRules
  bodies: boolean
}

/** Throws a RangeError for a bad size and a FaultRuleError for a bad rule. */
export function createInstruments(options: InstrumentOptions = {}): Instruments {
  const size = options.requestLog?.size ?? DEFAULT_REQUEST_LOG_SIZE
  if (!Number.isInteger(size) || size < 0 || size > 1_000_000)
    throw new RangeError(`the request log's size must be a whole number from 0 to 1000000, got ${size}`)
  const faults = new FaultRules()
  if (options.faults?.length) faults.add(options.faults)
  return { requests: new RequestRing(size), faults, bodies: options.requestLog?.bodies ?? false }
}
