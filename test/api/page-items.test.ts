import { createClient } from '../../src/api/client.js'
import { PageItems } from '../../src/api/page-items.js'
import { collect } from '../../src/api/paginate.js'
import { rootAndAcme, tokens } from '../support/seeds.js'
import { startServer, type TestServer } from '../support/server.js'

/**
 * A page source that logs what happens to it: each page is handed out after a macrotask (as a
 * response would be), `fail` makes the page at that index throw, and `finally` records the close.
 */
function source(pages: number[][], log: string[], fail?: number) {
  return (async function* () {
    try {
      for (const [i, items] of pages.entries()) {
        log.push(`page ${i}`)
        await new Promise((resolve) => setTimeout(resolve, 1))
        if (i === fail) throw new Error(`page ${i} failed`)
        yield { items }
      }
    } finally {
      log.push('closed')
    }
  })()
}

/** The async generator PageItems replaces, over the same kind of source. */
async function* reference(pages: AsyncGenerator<{ items: number[] }>) {
  for await (const page of pages) for (const item of page.items) yield item
}

type Step = 'next' | 'return' | 'throw' | 'dispose'
/** Runs `steps` (started together when in one inner array) and records each outcome in order. */
async function run(it: AsyncGenerator<number, unknown, undefined>, steps: Step[][], log: string[]) {
  for (const group of steps) {
    const outcomes = await Promise.allSettled(
      group.map((step) =>
        step === 'next'
          ? it.next()
          : step === 'return'
            ? it.return(undefined)
            : step === 'throw'
              ? it.throw(new Error('thrown in'))
              : it[Symbol.asyncDispose]().then(() => 'disposed'),
      ),
    )
    for (const o of outcomes)
      log.push(
        o.status === 'fulfilled' ? JSON.stringify(o.value) : `rejected: ${(o.reason as Error).message}`,
      )
  }
  return log
}

describe('PageItems, the item iterator of a paged list', () => {
  const pages = [[1, 2], [], [3], [4, 5, 6]]
  // [what, steps, the page that fails]; steps in one inner array are started together.
  const scripts: [string, Step[][], number | undefined][] = [
    ['every item in order, empty pages skipped, then done for good', Array(9).fill(['next']), undefined],
    [
      'calls made together across page boundaries resolve in order',
      [Array(7).fill('next'), ['next']],
      undefined,
    ],
    ['return() closes the source, then next() is done', [['next'], ['return'], ['next']], undefined],
    [
      'a return() made while a page is awaited runs after it',
      [['next', 'next', 'next', 'return', 'next']],
      undefined,
    ],
    ['throw() closes the source and rejects with the error', [['next'], ['throw'], ['next']], undefined],
    [
      'throw() and return() before the first next() read nothing',
      [['throw'], ['return'], ['next']],
      undefined,
    ],
    ['a failing page rejects next(), and the list is done', [['next', 'next', 'next', 'next'], ['next']], 2],
    ['asyncDispose (await using) closes the source', [['next'], ['dispose'], ['next']], undefined],
  ]

  it.each(scripts)('behaves as the async generator it replaces: %s', async (_what, steps, fail) => {
    // Each log interleaves the source's events with the outcomes, so when pages are read is compared too.
    const ours: string[] = []
    const theirs: string[] = []
    await run(new PageItems(source(pages, ours, fail)), steps, ours)
    await run(reference(source(pages, theirs, fail)), steps, theirs)
    expect(ours).toEqual(theirs)
    expect(ours.filter((e) => e !== 'closed' && !e.startsWith('page ')).length).toBe(steps.flat().length)
  })

  it('is lazy: nothing is read before the first next()', async () => {
    const log: string[] = []
    const items = new PageItems(source(pages, log))
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(log).toEqual([])
    expect(await items.next()).toEqual({ value: 1, done: false })
    expect(log).toEqual(['page 0'])
  })

  it('is its own async iterator and reads as an AsyncGenerator', async () => {
    const items = new PageItems(source(pages, []))
    expect(items[Symbol.asyncIterator]()).toBe(items)
    expect(Object.prototype.toString.call(items)).toBe('[object AsyncGenerator]')
    const all: number[] = []
    for await (const item of items) all.push(item)
    expect(all).toEqual([1, 2, 3, 4, 5, 6])
  })
})

describe('a list of issues through the item iterator, on the reference server', () => {
  let server: TestServer
  beforeAll(async () => {
    const issues = Array.from({ length: 250 }, (_, i) => `      - { title: issue ${i + 1}, author: root }`)
    server = await startServer(
      rootAndAcme(`projects:\n  - path: acme/widgets\n    issues:\n${issues.join('\n')}`),
    )
  })
  afterAll(() => server.close())

  it('gives every issue once, in the order of the pages, and stops cleanly on break', async () => {
    const client = createClient({ baseUrl: server.baseUrl, token: tokens.root })
    const pages = await collect(
      client.pages<{ iid: number }>('/projects/acme%2Fwidgets/issues', { perPage: 100 }),
    )
    const paged = pages.flatMap((p) => p.items.map((i) => i.iid))
    const listed = (await collect(client.issues.list('acme/widgets'))).map((i) => i.iid)
    expect(paged).toHaveLength(250)
    expect(listed).toEqual(paged)
    expect(new Set(listed).size).toBe(250)
    const firstHundredAndOne: number[] = []
    for await (const issue of client.issues.list('acme/widgets')) {
      firstHundredAndOne.push(issue.iid)
      if (firstHundredAndOne.length === 101) break
    }
    expect(firstHundredAndOne).toEqual(paged.slice(0, 101))
    await client.close()
  })
})
