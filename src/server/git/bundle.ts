import { createHash, type Hash } from 'node:crypto'
import { once } from 'node:events'
import { finished } from 'node:stream/promises'
import type { Writable } from 'node:stream'
import { deflateSync, inflateSync } from 'node:zlib'
import { gitObject, type GitObject, type GitObjectType } from './objects.js'

/**
 * Git bundles (`git bundle create`, format v2: gitformat-bundle(5)), written and read here rather
 * than by running `git`: a bundle is a short text header and a packfile of zlib-compressed objects
 * (gitformat-pack(5)), written whole (no deltas), and the export must work where no `git` is installed.
 */

/** One ref line of a bundle: `refs/heads/main`, `refs/tags/v1.0`, `HEAD`. */
export interface BundleRef {
  name: string
  sha: string
}

const PACK_TYPES: Record<GitObjectType, number> = { commit: 1, tree: 2, blob: 3, tag: 4 }
const TYPE_NAMES: Record<number, GitObjectType | undefined> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' }

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

/** What a bundle holds: its refs, and the objects of its pack (deltas applied). */
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
 * A whole bundle: its refs, and every object of its pack, deltas applied (`git bundle create`
 * stores similar files and trees as deltas of each other). Throws on anything that is not a bundle.
 */
export function readBundle(data: Buffer): BundleContents {
  const { refs, packAt } = readBundleRefs(data)
  return { refs, objects: readPack(data.subarray(packAt)) }
}

/** A pack entry before its delta (if any) is applied. */
interface PackEntry {
  at: number
  type: number
  data: Buffer
  /** OFS_DELTA: the base's offset in the pack; REF_DELTA: the base's SHA. */
  base?: number | string
}

function readPack(pack: Buffer): GitObject[] {
  if (pack.length < 32 || pack.toString('ascii', 0, 4) !== 'PACK') throw new Error('not a git bundle')
  const count = pack.readUInt32BE(8)
  const entries: PackEntry[] = []
  let at = 12
  for (let i = 0; i < count; i++) {
    const start = at
    let byte = pack[at++]!
    const type = (byte >> 4) & 7
    while (byte & 0x80) byte = pack[at++]!
    let base: number | string | undefined
    if (type === 6) {
      // OFS_DELTA: the base's distance back, a big-endian number with an offset added per byte.
      byte = pack[at++]!
      let distance = byte & 0x7f
      while (byte & 0x80) {
        byte = pack[at++]!
        distance = (distance + 1) * 128 + (byte & 0x7f)
      }
      base = start - distance
    } else if (type === 7) {
      base = pack.toString('hex', at, at + 20) // REF_DELTA: the base's SHA-1
      at += 20
    }
    const { buffer, engine } = inflateSync(pack.subarray(at), { info: true }) as unknown as {
      buffer: Buffer
      engine: { bytesWritten: number }
    }
    at += engine.bytesWritten
    entries.push({ at: start, type, data: buffer, ...(base === undefined ? {} : { base }) })
  }
  return resolveDeltas(entries)
}

/** Applies deltas until none is left whose base is known (a base may come after its delta). */
function resolveDeltas(entries: PackEntry[]): GitObject[] {
  const byOffset = new Map<number, GitObject>()
  const bySha = new Map<string, GitObject>()
  let pending = entries
  while (pending.length > 0) {
    const next: PackEntry[] = []
    for (const e of pending) {
      const base =
        e.base === undefined
          ? undefined
          : typeof e.base === 'number'
            ? byOffset.get(e.base)
            : bySha.get(e.base)
      const name = e.base === undefined ? TYPE_NAMES[e.type] : base?.type
      if (e.base !== undefined && !base) {
        next.push(e)
        continue
      }
      if (!name) continue
      const object = gitObject(name, base ? applyDelta(base.body, e.data) : e.data)
      byOffset.set(e.at, object)
      bySha.set(object.sha, object)
    }
    if (next.length === pending.length) break // bases outside the pack (a thin pack): left out
    pending = next
  }
  return [...bySha.values()]
}

/** A git delta (gitformat-pack, "Deltified representation"): copies from the base and inserts. */
function applyDelta(base: Buffer, delta: Buffer): Buffer {
  let at = 0
  const size = () => {
    let value = 0
    let shift = 0
    let byte: number
    do {
      byte = delta[at++]!
      value += (byte & 0x7f) * 2 ** shift
      shift += 7
    } while (byte & 0x80)
    return value
  }
  if (size() !== base.length) throw new Error('corrupt delta')
  const out = Buffer.alloc(size())
  let written = 0
  while (at < delta.length) {
    const op = delta[at++]!
    if (op & 0x80) {
      let offset = 0
      let length = 0
      for (let i = 0; i < 4; i++) if (op & (1 << i)) offset += delta[at++]! * 2 ** (8 * i)
      for (let i = 0; i < 3; i++) if (op & (0x10 << i)) length += delta[at++]! * 2 ** (8 * i)
      if (length === 0) length = 0x10000
      written += base.copy(out, written, offset, offset + length)
    } else if (op > 0) {
      written += delta.copy(out, written, at, at + op)
      at += op
    } else throw new Error('corrupt delta')
  }
  if (written !== out.length) throw new Error('corrupt delta')
  return out
}
