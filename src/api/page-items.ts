/*
 * The items of a paged list one at a time, as an AsyncGenerator written out by hand. An `async
 * function*` that yields each item of each page makes a promise and two microtask turns for every
 * item (the `yield`'s await of the value, then the request's resolution); here an item of a page
 * already read is one resolved promise.
 */
const done = <T>(value: T) => ({ value, done: true as const })

/**
 * Items of `source`'s pages in order, with an async generator's behaviour: lazy (nothing is
 * requested before the first `next()`); calls made while one is waiting for a page run after it,
 * in order; `return()` (what `break` calls) and `throw()` close `source`, which aborts the pages it
 * has in flight, then complete; after completion, or once `source` has thrown, `next()` gives
 * `done`.
 */
export class PageItems<T> implements AsyncGenerator<T, void, undefined> {
  private items: readonly T[] = []
  private at = 0
  private finished = false
  /** Calls not yet settled; while any is, a new call runs after `tail`. */
  private running = 0
  private tail: Promise<unknown> = Promise.resolve()

  constructor(private readonly source: AsyncGenerator<{ items: readonly T[] }>) {}

  next(): Promise<IteratorResult<T, void>> {
    if (this.running === 0) {
      if (this.at < this.items.length)
        return Promise.resolve({ value: this.items[this.at++] as T, done: false })
      if (this.finished) return Promise.resolve(done(undefined))
    }
    return this.serial(() => this.fill())
  }

  return(value?: void | PromiseLike<void>): Promise<IteratorResult<T, void>> {
    return this.serial(async () => {
      await this.close()
      return done(await value)
    })
  }

  throw(err: unknown): Promise<IteratorResult<T, void>> {
    return this.serial(async () => {
      await this.close()
      throw err
    })
  }

  [Symbol.asyncIterator](): this {
    return this
  }

  /** `await using`: closes the list as `return()` does (`%AsyncIteratorPrototype%`'s behaviour). */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.return(undefined)
  }

  /** `Object.prototype.toString` reads `[object AsyncGenerator]`, as for a generator. */
  get [Symbol.toStringTag](): string {
    return 'AsyncGenerator'
  }

  /** The next item, reading pages (empty ones too) until one has it or the list ends. */
  private async fill(): Promise<IteratorResult<T, void>> {
    while (this.at >= this.items.length) {
      if (this.finished) return done(undefined)
      let page: IteratorResult<{ items: readonly T[] }>
      try {
        page = await this.source.next()
      } catch (err) {
        this.end()
        throw err
      }
      if (page.done) {
        this.end()
        return done(undefined)
      }
      this.items = page.value.items
      this.at = 0
    }
    return { value: this.items[this.at++] as T, done: false }
  }

  private async close(): Promise<void> {
    if (this.finished) return
    this.end()
    await this.source.return(undefined)
  }

  private end(): void {
    this.finished = true
    this.items = []
    this.at = 0
  }

  /** Runs `step` now when no call is pending, else after the last one settles. */
  private serial<R>(step: () => Promise<R>): Promise<R> {
    const run = this.running === 0 ? step() : this.tail.then(step, step)
    this.running++
    const settled = () => void this.running--
    this.tail = run.then(settled, settled)
    return run
  }
}
