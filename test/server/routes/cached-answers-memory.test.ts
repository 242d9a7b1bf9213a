import { arrayBuffersKiBOf } from '../../support/spawned.js'

/*
 * An answer kept in the response cache holds bytes of its own (src/server/http/own-bytes.ts). Made by
 * `Buffer.from` or `Buffer.concat`, a body under 32 KiB was a slice of Node's shared 64 KiB pool
 * and held its whole slab, where other requests' short-lived Buffers were cut too: a cache of
 * small answers held many times their size. Measured in a child process after a full collection.
 */
it('1,000 cached list answers hold about their own size in Buffers', async () => {
  const kib = await arrayBuffersKiBOf('cached-answers-memory-child.ts', '1000')
  // 3.8 MB with the server's own (undici, Fastify); 18.5 MB when the bodies were pool slices.
  expect(kib).toBeLessThan(8 * 1024)
}, 60_000)
