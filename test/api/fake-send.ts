import type { ApiRequest, ApiResponse, ResponseBody, Send } from '../../src/api/transport.js'

/** A body that records whether it was read or dumped. */
export function fakeBody(text: string, log?: string[]): ResponseBody {
  return {
    text: async () => (log?.push('text'), text),
    dump: async () => void log?.push('dump'),
    async *[Symbol.asyncIterator]() {
      yield text
    },
  }
}

/** One scripted answer: a status with headers and body text, or a thrown network error with a code. */
export type Answer = { status: number; headers?: Record<string, string>; body?: string } | { error: string }

/**
 * A scripted `Send`: each call takes the next answer. `log` records `send`, `dump`, `text` and
 * `sleep <ms>` in order (pass the same log to `sleeper`).
 */
export function scripted(answers: Answer[], log: string[] = []) {
  const calls: ApiRequest[] = []
  const send: Send = async (req): Promise<ApiResponse> => {
    calls.push(req)
    log.push('send')
    const next = answers.shift()
    if (!next) throw new Error('no more answers')
    if ('error' in next) throw Object.assign(new Error(`socket: ${next.error}`), { code: next.error })
    return { status: next.status, headers: next.headers ?? {}, body: fakeBody(next.body ?? '', log) }
  }
  return { send, calls, log }
}

/** An injected sleep that records and returns at once, and a fixed random and clock. */
export function sleeper(log: string[] = []) {
  const slept: number[] = []
  return {
    slept,
    policy: {
      sleep: async (ms: number) => {
        slept.push(ms)
        log.push(`sleep ${ms}`)
      },
      random: () => 0.5,
      now: () => 1_000_000,
    },
  }
}
