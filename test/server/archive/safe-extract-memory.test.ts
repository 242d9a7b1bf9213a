import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { archive, repeated } from '../../support/hostile-archive.js'
import { arrayBuffersKiBOf } from '../../support/spawned.js'

/*
 * Extraction frees gunzip's output as it goes: a server whose young generation has grown (as after
 * an export) collected it only every 64 MB of dead Buffers, and the import's peak rose with them
 * (the row transfer: 175-216 MB). The extraction runs in a child process whose young generation is
 * grown first; it reports the ArrayBuffers' high-water mark (VmHWM there moves with the young
 * generation's pages too: 0-26 MB of growth with the collections, 38-54 MB without).
 */
const MB = 1024 * 1024

let work: string
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'extract-memory-'))
})
afterAll(() => rmSync(work, { recursive: true, force: true }))

it('extracting 128 MB of ndjson holds under 32 MB of Buffers at any time', async () => {
  const file = await archive(work, async (pack) => {
    await repeated(pack, './tree/project/issues.ndjson', 128 * MB, 'a')
  })
  const dest = join(work, 'out')
  mkdirSync(dest)
  const kib = await arrayBuffersKiBOf('extract-memory-child.ts', file, dest)
  expect(readdirSync(join(dest, 'tree', 'project'))).toEqual(['issues.ndjson'])
  expect(kib * 1024).toBeLessThan(32 * MB)
}, 60_000)
