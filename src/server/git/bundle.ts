import { createHash, type Hash } from 'node:crypto'
import { once } from 'node:events'
import { finished } from 'node:stream/promises'
import type { Writable } from 'node:stream'
import { deflateSync, inflateSync } from 'node:zlib'
import { gitObject, type GitObject, type GitObjectType } from './objects.js'

/**
 * Git bundles (`git bundle create`, format v2: gitformat-bundle(5)), written and read here rather
 * than by running `git`: a bundle of a few empty commits is a short text header and a packfile of
 * zlib-compressed objects (gitformat-pack(5)), and the export must work where no `git` is installed.
 */

/** One ref line of a bundle: `refs/heads/main`, `refs/tags/v1.0`, `HEAD`. */
export interface BundleRef {
  name: string
  sha: string
}

const PACK_TYPES: Record<GitObjectType, number> = { commit: 1, tree: 2 }
const TYPE_NAMES: Record<number, GitObjectType | undefined> = { 1: 'commit', 2: 'tree' }

/** A pack entry header: type and size, 4 bits then 7 bits per byte, least significant first. */
function entryHeader(type: number, size: number): Buffer {
  const bytes: number[] = []
  let byte = (type << 4) | (size & 0x0f)
  let rest = Math.floor(size / 16)
  while (rest > 0) {
    bytes.push(byte | 0x80)
    byte = rest & 0x7f
    rest = Math.floor(rest / 128)
  }
  bytes.push(byte)
  return Buffer.from(bytes)
}

/**
 * Streams a v2 bundle to `out`: `ref` writes one header line, `startPack` ends the header and
 * writes the pack header (the object count must be known up front), `add` one object, `end` the
 * pack's SHA-1 trailer. Honours back-pressure, so refs and objects can come in batches.
 */
export class BundleWriter {
  private readonly pack: Hash = createHash('sha1')
  private left = 0
  private started = false
  constructor(private readonly out: Writable) {}

  async ref(ref: BundleRef): Promise<void> {
    if (!this.started) await this.write(Buffer.from('# v2 git bundle\n', 'utf8'), false)
    this.started = true
    await this.write(Buffer.from(`${ref.sha} ${ref.name}\n`, 'utf8'), false)
  }

  async startPack(objectCount: number): Promise<void> {
    if (!this.started) throw new Error('bundle: no refs')
    const head = Buffer.alloc(12)
    head.write('PACK', 0, 'ascii')
    head.writeUInt32BE(2, 4)
    head.writeUInt32BE(objectCount, 8)
    this.left = objectCount
    await this.write(Buffer.from('\n', 'utf8'), false)
    await this.write(head)
  }

  async add(object: GitObject): Promise<void> {
    if (this.left-- <= 0) throw new Error('bundle: more objects than announced')
    await this.write(
      Buffer.concat([entryHeader(PACK_TYPES[object.type], object.body.length), deflateSync(object.body)]),
    )
  }

  async end(): Promise<void> {
    if (this.left !== 0) throw new Error('bundle: fewer objects than announced')
    await this.write(this.pack.digest(), false)
    this.out.end()
    await finished(this.out)
  }

  private async write(chunk: Buffer, packed = true): Promise<void> {
    if (packed) this.pack.update(chunk)
    if (!this.out.write(chunk)) await once(this.out, 'drain')
  }
}

/** What a bundle holds: its refs, and the objects of its pack that are stored whole (not deltas). */
export interface BundleContents {
  refs: BundleRef[]
  objects: GitObject[]
}

const SHA = /^[0-9a-f]{40}$/

/**
 * The refs of a v2 or v3 bundle (`# v3 git bundle` adds `@capability` lines) and where its pack
 * starts. Throws on anything that is not a bundle.
 */
export function readBundleRefs(data: Buffer): { refs: BundleRef[]; packAt: number } {
  const end = data.indexOf('\n\n')
  if (end < 0) throw new Error('not a git bundle')
  const [signature, ...lines] = data.subarray(0, end).toString('utf8').split('\n')
  if (signature !== '# v2 git bundle' && signature !== '# v3 git bundle') throw new Error('not a git bundle')
  const refs: BundleRef[] = []
  for (const line of lines) {
    if (line.startsWith('@') || line.startsWith('-')) continue // capabilities, prerequisites
    const space = line.indexOf(' ')
    const sha = line.slice(0, space)
    if (space < 0 || !SHA.test(sha)) throw new Error('not a git bundle')
    refs.push({ sha, name: line.slice(space + 1) })
  }
  return { refs, packAt: end + 2 }
}

/**
 * A whole bundle: its refs, and the commits and trees its pack stores whole. Deltas, blobs and
 * tags are skipped (the emulator keeps no file contents). Throws on anything that is not a bundle.
 */
export function readBundle(data: Buffer): BundleContents {
  const { refs, packAt } = readBundleRefs(data)
  return { refs, objects: readPack(data.subarray(packAt)) }
}

function readPack(pack: Buffer): GitObject[] {
  if (pack.length < 32 || pack.toString('ascii', 0, 4) !== 'PACK') throw new Error('not a git bundle')
  const count = pack.readUInt32BE(8)
  const objects: GitObject[] = []
  let at = 12
  for (let i = 0; i < count; i++) {
    let byte = pack[at++]!
    const type = (byte >> 4) & 7
    while (byte & 0x80) byte = pack[at++]!
    if (type === 6) {
      // OFS_DELTA: a variable-length offset to its base precedes the data.
      while (pack[at++]! & 0x80);
    } else if (type === 7) at += 20 // REF_DELTA: the base's SHA-1
    const { buffer, engine } = inflateSync(pack.subarray(at), { info: true }) as unknown as {
      buffer: Buffer
      engine: { bytesWritten: number }
    }
    at += engine.bytesWritten
    const name = TYPE_NAMES[type]
    if (name) objects.push(gitObject(name, buffer))
  }
  return objects
}
