import { createWriteStream } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { NdjsonWriter } from '../../../src/server/archive/ndjson-writer.js'

describe('NdjsonWriter', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ndjson-'))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('writes every line, in order, across many buffered chunks', async () => {
    const path = join(dir, 'issues.ndjson')
    const out = new NdjsonWriter(createWriteStream(path))
    const rows = Array.from({ length: 20_000 }, (_, i) => ({
      iid: i + 1,
      title: `Issue ${i + 1} ✓`,
      body: 'x'.repeat(i % 300),
    }))
    for (const row of rows) await out.write(row)
    await out.close()
    expect(out.lines).toBe(rows.length)
    const text = await readFile(path, 'utf8')
    expect(text.endsWith('\n')).toBe(true)
    expect(
      text
        .split('\n')
        .slice(0, -1)
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual(rows)
  })

  it('reports a file that cannot be written', async () => {
    const out = new NdjsonWriter(createWriteStream(join(dir, 'missing', 'x.ndjson')))
    await out.write({ a: 1 })
    await expect(out.close()).rejects.toThrow(/ENOENT/)
  })
})
