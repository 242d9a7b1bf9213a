/*
 * Run by test/server/archive/safe-extract-memory.test.ts in its own process (arrayBuffersKiBOf; its
 * heap untouched by Jest): grows the young generation as a busy server's grows (objects that
 * survive a few collections), then extracts ARCHIVE into DEST and prints the most memory that
 * ArrayBuffers (Buffers, live or dead but not yet collected) held during the extraction, in KiB.
 */
import { extractArchive } from '../../src/server/archive/safe-extract.js'

const [archive, dest] = process.argv.slice(2) as [string, string]

let survivors: unknown[] = []
for (let i = 0; i < 3_000_000; i++) {
  survivors.push({ i, text: `row ${i}` })
  if (survivors.length > 100_000) survivors = []
}
survivors = []
let buffers = 0
const sampler = setInterval(() => (buffers = Math.max(buffers, process.memoryUsage().arrayBuffers)), 5)
await extractArchive(archive, dest, { maxDecompressedBytes: 0, maxEntries: 100 })
clearInterval(sampler)
process.stdout.write(`${buffers >> 10}\n`)
