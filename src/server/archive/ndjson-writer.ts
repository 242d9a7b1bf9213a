import { once } from 'node:events'
import { finished } from 'node:stream/promises'
import type { Writable } from 'node:stream'

/** Lines are gathered up to this many characters before one write (a write per line was most of an export's time). */
const CHUNK = 64 * 1024

/**
 * Writes one relation file of the export tree (as GitLab's `json/ndjson_writer.rb`) to `out` (an archive
 * entry, `TarGzWriter.stream`, or a file): one compact JSON document per line, each ending in `\n`,
 * honouring back-pressure so that memory stays flat however many rows pass through. `close()`
 * resolves once `out` has finished.
 */
export class NdjsonWriter {
  private failure: Error | undefined
  private pending = ''
  lines = 0
  constructor(private readonly out: Writable) {
    this.out.on('error', (err) => (this.failure = err))
  }
  /** Appends one line; waits when the file's buffer is full. */
  write(value: unknown): Promise<void> {
    return this.writeJson(JSON.stringify(value))
  }
  /** Appends one line already serialised as compact JSON (no newline in it); waits as `write` does. */
  async writeJson(json: string): Promise<void> {
    if (this.failure) throw this.failure
    this.lines++
    this.pending += `${json}\n`
    if (this.pending.length >= CHUNK) await this.flush()
  }
  /**
   * Appends part of a line too long to build whole (an issue with a million notes), no newline in
   * it; `writeJson` of the line's last part ends it. Waits as `write` does.
   */
  async writePart(text: string): Promise<void> {
    if (this.failure) throw this.failure
    this.pending += text
    if (this.pending.length >= CHUNK) await this.flush()
  }
  async close(): Promise<void> {
    await this.flush()
    if (this.failure) throw this.failure
    this.out.end()
    await finished(this.out)
  }
  private async flush(): Promise<void> {
    if (this.pending === '') return
    const chunk = this.pending
    this.pending = ''
    if (!this.out.write(chunk)) await once(this.out, 'drain')
  }
}
