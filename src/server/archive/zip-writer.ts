/*
 * A ZIP archive (a job's `artifacts.zip`, a repository's `archive.zip`) in the layout of PKWARE's
 * APPNOTE: a local header and the data of each entry, then the central directory and its end
 * record. Entries are written as `git archive --format=zip` writes them (`archive-zip.c`): a file
 * DEFLATE-compressed by node:zlib (level 6, git's and gitlab-runner's default), or stored when that
 * does not make it smaller; a folder stored empty with the MS-DOS directory attribute; a symlink
 * stored with its target as data; Unix modes (`S_IFLNK | 0777`, `S_IFREG | 0755`) in the external
 * attributes of the entries that have one, made by "Unix 2.3"; the text bit for data without a NUL
 * in its first 8,000 bytes; an extended timestamp (`UT`) beside the MS-DOS time. ZIP64 fields are
 * added where a size, an offset or the count of entries passes the classic fields' limits.
 *
 * Memory after start: it replaced fflate's `zipSync`, whose module builds its Huffman tables when
 * it loads, in a loop hot enough for V8's optimizing compiler, at every start of `serve` (3.6 MB
 * more resident), for archives most servers never make.
 */
import { crc32, deflateRawSync } from 'node:zlib'

/** One entry of the archive: its path inside it (a folder's ends in `/`), its bytes, its modification time. */
export interface ZipEntry {
  path: string
  content: Uint8Array
  mtime: Date
  /** `file` by default; a symlink's content is its target. */
  type?: 'file' | 'directory' | 'symlink'
  /** Unix permission bits (`0o755` for an executable, `0o777` for a symlink); none by default. */
  unixMode?: number
}

/**
 * Where the classic fields end: a size or offset at `bytes` or above, a count at `entries` or above,
 * takes ZIP64 (APPNOTE 4.4.8, 4.4.22). Lower limits let a test see ZIP64 without 4 GiB of data.
 */
export interface ZipLimits {
  bytes: number
  entries: number
}
export const ZIP_LIMITS: ZipLimits = { bytes: 0xffffffff, entries: 0xffff }

const LOCAL_HEADER = 0x04034b50
const CENTRAL_HEADER = 0x02014b50
const ZIP64_END_OF_CENTRAL_DIRECTORY = 0x06064b50
const ZIP64_END_LOCATOR = 0x07064b50
const END_OF_CENTRAL_DIRECTORY = 0x06054b50
/** Versions needed to extract: 1.0 stored, 2.0 DEFLATE or a folder, 4.5 ZIP64. */
const STORED_VERSION = 10
const DEFLATE_VERSION = 20
const ZIP64_VERSION = 45
/** "Version made by": host 3 (Unix), version 2.3, as git writes for an entry with a Unix mode; else 0 (MS-DOS). */
const MADE_ON_UNIX = 0x0317
const DEFLATE = 8
/** General purpose flag bit 11: the name is UTF-8. */
const UTF8_NAME = 0x0800
const MS_DOS_DIRECTORY = 0x10
const REGULAR_FILE = 0o100000
const SYMLINK = 0o120000
const ZIP64_EXTRA = 0x0001
const TIMESTAMP_EXTRA = 0x5455
const MAX32 = 0xffffffff
const MAX16 = 0xffff

/** MS-DOS date and time (local time, two-second steps), as ZIP headers hold them; 1980 at the earliest. */
function dosTime(at: Date): { time: number; date: number } {
  const year = Math.max(at.getFullYear(), 1980)
  return {
    time: (at.getHours() << 11) | (at.getMinutes() << 5) | (at.getSeconds() >> 1),
    date: ((year - 1980) << 9) | ((at.getMonth() + 1) << 5) | at.getDate(),
  }
}

/** The `UT` extra field: the modification time in seconds since the epoch (flag bit 0). */
function timestampExtra(mtime: Date): Buffer {
  const b = Buffer.alloc(9)
  b.writeUInt16LE(TIMESTAMP_EXTRA, 0)
  b.writeUInt16LE(5, 2)
  b.writeUInt8(1, 4)
  b.writeUInt32LE(Math.max(0, Math.floor(mtime.getTime() / 1000)) >>> 0, 5)
  return b
}

/** The ZIP64 extended information field of these 64-bit values, in APPNOTE's order. */
function zip64Extra(values: number[]): Buffer {
  const b = Buffer.alloc(4 + 8 * values.length)
  b.writeUInt16LE(ZIP64_EXTRA, 0)
  b.writeUInt16LE(8 * values.length, 2)
  values.forEach((v, i) => b.writeBigUInt64LE(BigInt(v), 4 + 8 * i))
  return b
}

/** Git's binary test: a NUL in the first 8,000 bytes. */
const isText = (content: Uint8Array) => !content.subarray(0, 8000).includes(0)

/** A header's fields from `version needed` to `extra field length`, shared by local and central headers. */
function headerFields(f: {
  version: number
  flags: number
  method: number
  mtime: Date
  crc: number
  compressed: number
  size: number
  name: number
  extra: number
}): Buffer {
  const b = Buffer.alloc(26)
  const { time, date } = dosTime(f.mtime)
  b.writeUInt16LE(f.version, 0)
  b.writeUInt16LE(f.flags, 2)
  b.writeUInt16LE(f.method, 4)
  b.writeUInt16LE(time, 6)
  b.writeUInt16LE(date, 8)
  b.writeUInt32LE(f.crc, 10)
  b.writeUInt32LE(f.compressed, 14)
  b.writeUInt32LE(f.size, 18)
  b.writeUInt16LE(f.name, 22)
  b.writeUInt16LE(f.extra, 24)
  return b
}

/** What the central directory's external attributes hold for an entry. */
function externalAttributes(entry: ZipEntry): number {
  if (entry.type === 'directory') return MS_DOS_DIRECTORY
  if (entry.unixMode === undefined) return 0
  return (((entry.type === 'symlink' ? SYMLINK : REGULAR_FILE) | entry.unixMode) << 16) >>> 0
}

/**
 * The archive of `entries`, in their order, in parts: each entry's header and data as soon as it
 * is read, then the central directory (a few dozen bytes per entry) and its end records, so that
 * an archive is sent while it is made and only one entry's bytes are held at a time.
 */
export function* zipParts(entries: Iterable<ZipEntry>, limits: ZipLimits = ZIP_LIMITS): Generator<Buffer> {
  const central: Buffer[] = []
  let centralLength = 0
  let offset = 0
  let count = 0
  const big = (n: number) => n >= limits.bytes
  for (const entry of entries) {
    const folder = entry.type === 'directory'
    const name = Buffer.from(entry.path, 'utf8')
    const size = folder ? 0 : entry.content.length
    const deflated =
      (entry.type ?? 'file') === 'file' && size > 0 ? deflateRawSync(entry.content, { level: 6 }) : undefined
    const compress = deflated !== undefined && deflated.length < size
    const data = folder ? Buffer.alloc(0) : compress ? deflated : Buffer.from(entry.content)
    const stamp = timestampExtra(entry.mtime)
    // ZIP64 in a local header carries both sizes (APPNOTE 4.5.3); in the central one, what overflows.
    const sizes64 = big(size) || big(data.length)
    const wide = [big(size) ? size : undefined, big(data.length) ? data.length : undefined]
    if (big(offset)) wide.push(offset)
    const over = wide.filter((v) => v !== undefined)
    const localExtra = sizes64 ? Buffer.concat([stamp, zip64Extra([size, data.length])]) : stamp
    const centralExtra = over.length > 0 ? Buffer.concat([stamp, zip64Extra(over)]) : stamp
    const common = {
      version: sizes64 || big(offset) ? ZIP64_VERSION : compress ? DEFLATE_VERSION : STORED_VERSION,
      flags: name.length === entry.path.length ? 0 : UTF8_NAME,
      method: compress ? DEFLATE : 0,
      mtime: entry.mtime,
      crc: folder ? 0 : crc32(entry.content),
      name: name.length,
    }
    const signature = Buffer.alloc(4)
    signature.writeUInt32LE(LOCAL_HEADER, 0)
    const local = Buffer.concat([
      signature,
      headerFields({
        ...common,
        compressed: sizes64 ? MAX32 : data.length,
        size: sizes64 ? MAX32 : size,
        extra: localExtra.length,
      }),
      name,
      localExtra,
    ])
    yield Buffer.concat([local, data])
    const head = Buffer.alloc(6)
    head.writeUInt32LE(CENTRAL_HEADER, 0)
    head.writeUInt16LE(entry.unixMode === undefined ? 0 : MADE_ON_UNIX, 4)
    // Comment length, disk number, internal attributes (bit 0: text), external ones, the local header's offset.
    const tail = Buffer.alloc(14)
    if (!folder && isText(entry.content)) tail.writeUInt16LE(1, 4)
    tail.writeUInt32LE(externalAttributes(entry), 6)
    tail.writeUInt32LE(big(offset) ? MAX32 : offset, 10)
    const fields = headerFields({
      ...common,
      compressed: big(data.length) ? MAX32 : data.length,
      size: big(size) ? MAX32 : size,
      extra: centralExtra.length,
    })
    const record = Buffer.concat([head, fields, tail, name, centralExtra])
    central.push(record)
    centralLength += record.length
    offset += local.length + data.length
    count++
  }
  yield Buffer.concat([...central, endRecords(count, centralLength, offset, limits)])
}

/**
 * The end of central directory record, after a ZIP64 end record and its locator when the count,
 * the directory's size or its offset does not fit (their classic fields then hold all ones).
 */
function endRecords(count: number, length: number, offset: number, limits: ZipLimits): Buffer {
  const zip64 = count >= limits.entries || length >= limits.bytes || offset >= limits.bytes
  const end = Buffer.alloc(22)
  end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0)
  end.writeUInt16LE(count >= limits.entries ? MAX16 : count, 8)
  end.writeUInt16LE(count >= limits.entries ? MAX16 : count, 10)
  end.writeUInt32LE(length >= limits.bytes ? MAX32 : length, 12)
  end.writeUInt32LE(offset >= limits.bytes ? MAX32 : offset, 16)
  if (!zip64) return end
  const record = Buffer.alloc(56)
  record.writeUInt32LE(ZIP64_END_OF_CENTRAL_DIRECTORY, 0)
  record.writeBigUInt64LE(44n, 4) // the record's size after this field
  record.writeUInt16LE(ZIP64_VERSION, 12)
  record.writeUInt16LE(ZIP64_VERSION, 14)
  record.writeBigUInt64LE(BigInt(count), 24)
  record.writeBigUInt64LE(BigInt(count), 32)
  record.writeBigUInt64LE(BigInt(length), 40)
  record.writeBigUInt64LE(BigInt(offset), 48)
  const locator = Buffer.alloc(20)
  locator.writeUInt32LE(ZIP64_END_LOCATOR, 0)
  locator.writeBigUInt64LE(BigInt(offset + length), 8)
  locator.writeUInt32LE(1, 16)
  return Buffer.concat([record, locator, end])
}

/** The archive of `entries`, in their order, whole. */
export const zipFiles = (entries: readonly ZipEntry[]): Buffer => Buffer.concat([...zipParts(entries)])
