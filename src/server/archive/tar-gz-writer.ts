/*
 * A `.tar.gz` written while its entries are still being produced. GitLab's `tar -czf`
 * (`lib/gitlab/import_export/command_line_util.rb`) needs every file whole on disk before it starts; here a
 * large entry is compressed as it is written, on libuv's thread pool, while the exporter builds the next
 * lines on the main thread.
 *
 * The file is one ordinary gzip member, as GitLab's: a header, one DEFLATE stream, CRC-32 and size.
 * The DEFLATE stream is made of segments, each compressed on its own and ended with a sync flush
 * (byte-aligned, not final), which decoders read as one stream; only the last segment is final.
 * A streamed entry's tar header holds its size, known only at the end, so a stored (uncompressed)
 * block of fixed length is reserved for it and filled in when the entry closes.
 */
import { open, type FileHandle } from 'node:fs/promises'
import { PRIVATE_FILE_MODE } from '../store/private-files.js'
import { Writable } from 'node:stream'
import { promisify } from 'node:util'
import { constants, crc32, deflateRaw, deflateRawSync, type InputType, type ZlibOptions } from 'node:zlib'
import { crc32Combine } from './crc32-combine.js'

const BLOCK = 512
/** A streamed entry is compressed in pieces of this size, each on its own (pigz uses 128 KiB). */
const SEGMENT = 1024 * 1024
/** Pieces compressing at once on libuv's thread pool (4 threads by default). */
const PARALLEL = 3
/**
 * Not final (sync flush: byte-aligned, so the next segment can follow). zlib allocates a fresh
 * output buffer of `chunkSize` per segment, dead once the result is joined; a segment of export
 * lines compresses to some 30 KiB, so a larger buffer only adds off-heap garbage, which piles up
 * between collections and grows the allocator's arenas.
 */
const SEGMENT_OPTIONS: ZlibOptions = { finishFlush: constants.Z_SYNC_FLUSH, chunkSize: 32 * 1024 }
const deflateRawAsync = promisify<InputType, ZlibOptions, Buffer>(deflateRaw)
const END_OF_ARCHIVE = Buffer.alloc(2 * BLOCK)
/** gzip header: magic, DEFLATE, no flags, no mtime, no extra flags, OS Unix (as zlib writes it). */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3])
/** A stored block holding one tar header: BFINAL 0, BTYPE 00, then LEN and its complement. */
const STORED_HEADER_BLOCK = Buffer.from([0, BLOCK & 0xff, BLOCK >> 8, ~BLOCK & 0xff, (~BLOCK >> 8) & 0xff])

export interface TarEntry {
  /** Member name, ASCII, at most 100 bytes: `./tree/project/issues.ndjson`, `./tree/` for a directory. */
  name: string
  /** A symbolic link, or a pax header (`x`: the next member's, `g`: the whole archive's). */
  type: 'file' | 'directory' | 'symlink' | 'pax' | 'pax-global'
  size: number
  /** Permission bits (default 644 for files, 755 for directories). */
  mode?: number
  /** A symbolic link's target, ASCII, at most 100 bytes. */
  linkname?: string
}

const TYPE_FLAG: Record<TarEntry['type'], string> = {
  file: '0',
  directory: '5',
  symlink: '2',
  pax: 'x',
  'pax-global': 'g',
}

/** `n` in octal, zero-padded to `digits`, then a space: the field format tar-stream writes. */
const octal = (n: number, digits: number) => `${n.toString(8).padStart(digits, '0')} `

/**
 * A ustar header as tar-stream writes it (mode 644 for files, 755 for directories, owner 0). Sizes
 * beyond 11 octal digits (8 GiB) use the base-256 form GNU tar reads. Throws for a name that is not
 * short ASCII; export member names always are.
 */
export function ustarHeader(entry: TarEntry, mtime: Date): Buffer {
  if (entry.name.length > 100 || !/^[\x20-\x7e]+$/.test(entry.name))
    throw new Error(`tar member name not supported: ${entry.name}`)
  const header = Buffer.alloc(BLOCK)
  header.write(entry.name, 0, 'ascii')
  header.write(octal(entry.mode ?? (entry.type === 'directory' ? 0o755 : 0o644), 6), 100, 'ascii')
  header.write(octal(0, 6), 108, 'ascii') // uid
  header.write(octal(0, 6), 116, 'ascii') // gid
  if (entry.size.toString(8).length <= 11) header.write(octal(entry.size, 11), 124, 'ascii')
  else {
    header[124] = 0x80
    for (let i = 11, n = entry.size; i > 0; i--, n = Math.floor(n / 256)) header[124 + i] = n % 256
  }
  header.write(octal(Math.floor(mtime.getTime() / 1000), 11), 136, 'ascii')
  header.write(TYPE_FLAG[entry.type], 156, 'ascii')
  if (entry.linkname !== undefined) header.write(entry.linkname, 157, 100, 'ascii')
  header.write('ustar\x0000', 257, 'ascii')
  header.write(octal(0, 6), 329, 'ascii') // devmajor
  header.write(octal(0, 6), 337, 'ascii') // devminor
  let sum = 8 * 0x20 // the checksum field counts as spaces
  for (let i = 0; i < BLOCK; i++) if (i < 148 || i >= 156) sum += header[i] as number
  header.write(octal(sum, 6), 148, 'ascii')
  return header
}

/**
 * Writes a tar.gz, entries in the order they are added. Small entries (`directory`, `file`) are
 * gathered and compressed together; `stream` opens a large one that is compressed as it is
 * written. Only one streamed entry may be open, and nothing else is added meanwhile. Holds at most
 * the gathered small entries and a few SEGMENT buffers in memory. Call `close` to finish the file
 * or `destroy` to give it up (the caller removes it).
 */
export class TarGzWriter {
  private crc = 0
  private size = 0
  private position = GZIP_HEADER.length
  private gathered: Buffer[] = []
  private streaming = false

  /** Bytes of tar content written so far (headers, entries, padding), before compression. */
  get contentBytes(): number {
    return this.size
  }

  private constructor(
    private readonly out: FileHandle,
    private readonly mtime: Date,
  ) {}

  /** Creates (or truncates) `path` and writes the gzip header. Throws what the file system throws. */
  static async create(path: string, mtime: Date): Promise<TarGzWriter> {
    const out = await open(path, 'w', PRIVATE_FILE_MODE)
    try {
      await out.write(GZIP_HEADER, 0, GZIP_HEADER.length, 0)
    } catch (err) {
      await out.close()
      throw err
    }
    return new TarGzWriter(out, mtime)
  }

  directory(name: string): void {
    this.gather(ustarHeader({ name, type: 'directory', size: 0 }, this.mtime))
  }

  file(name: string, content: string | Buffer): void {
    const body = typeof content === 'string' ? Buffer.from(content) : content
    this.gather(
      ustarHeader({ name, type: 'file', size: body.length }, this.mtime),
      body,
      padding(body.length),
    )
  }

  /**
   * Opens a file entry whose content is written to the returned stream (strings or Buffers;
   * back-pressure honoured). Content is copied into SEGMENT-sized buffers, each compressed on the
   * thread pool once full while more is written, up to PARALLEL at a time, appended in order, and
   * reused: memory stays at a few segments whatever the size. Its header is written once the
   * stream finishes: wait for the stream's 'finish' before adding anything else.
   */
  async stream(name: string): Promise<Writable> {
    this.idle()
    await this.flushGathered()
    this.streaming = true
    const slot = this.position
    this.position += STORED_HEADER_BLOCK.length + BLOCK
    let crc = 0
    let size = 0
    let segment: Buffer = Buffer.allocUnsafe(SEGMENT)
    let used = 0
    const spare: Buffer[] = []
    const compressing: { input: Buffer; reuse: boolean; output: Promise<Buffer> }[] = []
    const start = (input: Buffer, reuse: boolean, length: number) => {
      const bytes = input.subarray(0, length)
      crc = crc32(bytes, crc)
      size += length
      const output = deflateRawAsync(bytes, SEGMENT_OPTIONS)
      output.catch(() => undefined) // awaited in order by `settle`
      compressing.push({ input, reuse, output })
    }
    /** Appends finished segments, in order, until at most `limit` are compressing. */
    const settle = async (limit: number) => {
      while (compressing.length > limit) {
        const { input, reuse, output } = compressing.shift() as (typeof compressing)[number]
        await this.append(await output)
        if (reuse) spare.push(input)
      }
    }
    /** Starts compressing the current segment and takes a free one. */
    const cut = async () => {
      if (used === 0) return
      start(segment, true, used)
      segment = spare.pop() ?? Buffer.allocUnsafe(SEGMENT)
      used = 0
      await settle(PARALLEL - 1)
    }
    const take = async (chunk: string | Buffer) => {
      // A string takes at most 3 UTF-8 bytes per UTF-16 unit: a bound that spares measuring it.
      const bound = typeof chunk === 'string' ? 3 * chunk.length : chunk.length
      if (used + bound > SEGMENT) await cut()
      if (bound <= SEGMENT)
        used += typeof chunk === 'string' ? segment.write(chunk, used) : chunk.copy(segment, used)
      else {
        // Compressed in place, so done before the caller may reuse its Buffer.
        const whole = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
        start(whole, false, whole.length)
        await settle(0)
      }
    }
    return new Writable({
      decodeStrings: false,
      write: (chunk: string | Buffer, _encoding, done) => {
        take(chunk).then(() => done(), done)
      },
      final: (done) => {
        cut()
          .then(() => settle(0))
          .then(async () => {
            const header = ustarHeader({ name, type: 'file', size }, this.mtime)
            const block = Buffer.concat([STORED_HEADER_BLOCK, header])
            await this.out.write(block, 0, block.length, slot)
            this.crc = crc32Combine(crc32(header, this.crc), crc, size)
            this.size += header.length + size
            this.streaming = false
            this.gathered.push(padding(size))
          })
          .then(() => done(), done)
      },
    })
  }

  /** Writes what is gathered, the end-of-archive blocks, the gzip trailer, and closes the file. */
  async close(): Promise<void> {
    this.idle()
    this.gathered.push(END_OF_ARCHIVE)
    await this.flushGathered(true)
    const trailer = Buffer.alloc(8)
    trailer.writeUInt32LE(this.crc, 0)
    trailer.writeUInt32LE(this.size % 2 ** 32, 4)
    await this.out.write(trailer, 0, trailer.length, this.position)
    await this.out.close()
  }

  /** Closes the file without finishing it. */
  async destroy(): Promise<void> {
    await this.out.close().catch(() => undefined)
  }

  private idle(): void {
    if (this.streaming) throw new Error('a streamed tar entry is still open')
  }

  private gather(...parts: Buffer[]): void {
    this.idle()
    this.gathered.push(...parts)
  }

  /** Compresses the gathered bytes as one segment: sync-flushed, or final at the end. */
  private async flushGathered(last = false): Promise<void> {
    const bytes = Buffer.concat(this.gathered)
    this.gathered = []
    if (bytes.length === 0 && !last) return
    this.crc = crc32(bytes, this.crc)
    this.size += bytes.length
    await this.append(deflateRawSync(bytes, last ? {} : { finishFlush: constants.Z_SYNC_FLUSH }))
  }

  /** Appends a compressed segment at the end of the file. */
  private async append(segment: Buffer): Promise<void> {
    await this.out.write(segment, 0, segment.length, this.position)
    this.position += segment.length
  }
}

/** Zero bytes that round `size` up to a whole tar block. */
const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK)
