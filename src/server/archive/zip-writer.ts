/*
 * A ZIP archive (a job's `artifacts.zip`, a repository's `archive.zip`), each file DEFLATE-compressed by
 * node:zlib (level 6, as gitlab-runner's archiver uses the default level), in the layout of PKWARE's
 * APPNOTE: a local header and the data of each file, then the central directory and its end record.
 * No ZIP64: a job's artifacts here stay far below 4 GB and 65,535 files.
 *
 * Memory after start: it replaced fflate's `zipSync`, whose module builds its Huffman tables when
 * it loads, in a loop hot enough for V8's optimizing compiler, at every start of `serve` (3.6 MB
 * more resident), for archives most servers never make.
 */
import { crc32, deflateRawSync } from 'node:zlib'

/** One file of the archive: its path inside it, its bytes and its modification time. */
export interface ZipEntry {
  path: string
  content: Uint8Array
  mtime: Date
  /** Unix permission bits (`0o755` for an executable), kept as git archive keeps them; none by default. */
  unixMode?: number
}

const LOCAL_HEADER = 0x04034b50
const CENTRAL_HEADER = 0x02014b50
const END_OF_CENTRAL_DIRECTORY = 0x06054b50
/** Version 2.0: DEFLATE. */
const VERSION = 20
/** "Version made by" of an entry with Unix attributes: host 3 (Unix), then the version. */
const MADE_ON_UNIX = (3 << 8) | VERSION
const DEFLATE = 8
/** General purpose flag bit 11: the name is UTF-8. */
const UTF8_NAME = 0x0800
/** A regular file's type bits in Unix attributes (`S_IFREG`). */
const REGULAR_FILE = 0o100000

/** MS-DOS date and time (local time, two-second steps), as ZIP headers hold them; 1980 at the earliest. */
function dosTime(at: Date): { time: number; date: number } {
  const year = Math.max(at.getFullYear(), 1980)
  return {
    time: (at.getHours() << 11) | (at.getMinutes() << 5) | (at.getSeconds() >> 1),
    date: ((year - 1980) << 9) | ((at.getMonth() + 1) << 5) | at.getDate(),
  }
}

/**
 * The archive of `entries`, in their order, in parts: each entry's header and data as soon as it
 * is read, then the central directory (a few dozen bytes per entry) and its end record, so that
 * an archive is sent while it is made and only one entry's bytes are held at a time.
 */
export function* zipParts(entries: Iterable<ZipEntry>): Generator<Buffer> {
  const central: Buffer[] = []
  let offset = 0
  let count = 0
  for (const entry of entries) {
    const name = Buffer.from(entry.path, 'utf8')
    const data = deflateRawSync(entry.content, { level: 6 })
    const { time, date } = dosTime(entry.mtime)
    const flags = name.length === entry.path.length ? 0 : UTF8_NAME
    const crc = crc32(entry.content)
    // The fields local and central headers share, from `version needed` to `extra field length`.
    const shared = Buffer.alloc(26)
    shared.writeUInt16LE(VERSION, 0)
    shared.writeUInt16LE(flags, 2)
    shared.writeUInt16LE(DEFLATE, 4)
    shared.writeUInt16LE(time, 6)
    shared.writeUInt16LE(date, 8)
    shared.writeUInt32LE(crc, 10)
    shared.writeUInt32LE(data.length, 14)
    shared.writeUInt32LE(entry.content.length, 18)
    shared.writeUInt16LE(name.length, 22)
    const local = Buffer.alloc(4)
    local.writeUInt32LE(LOCAL_HEADER, 0)
    yield Buffer.concat([local, shared, name, data])
    const head = Buffer.alloc(6)
    head.writeUInt32LE(CENTRAL_HEADER, 0)
    head.writeUInt16LE(entry.unixMode === undefined ? VERSION : MADE_ON_UNIX, 4)
    // Comment length, disk number, internal and external attributes, the local header's offset.
    const tail = Buffer.alloc(14)
    if (entry.unixMode !== undefined) tail.writeUInt32LE(((REGULAR_FILE | entry.unixMode) << 16) >>> 0, 6)
    tail.writeUInt32LE(offset, 10)
    central.push(head, shared, tail, name)
    offset += local.length + shared.length + name.length + data.length
    count++
  }
  const directory = Buffer.concat(central)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0)
  end.writeUInt16LE(count, 8)
  end.writeUInt16LE(count, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  yield Buffer.concat([directory, end])
}

/** The archive of `entries`, in their order, whole. */
export const zipFiles = (entries: readonly ZipEntry[]): Buffer => Buffer.concat([...zipParts(entries)])
