/*
 * A ZIP archive in memory, its members DEFLATEd by Node's zlib: a job's artifacts archive, as GitLab
 * Runner uploads it (`artifacts.zip`). The format of APPNOTE.TXT 6.3: a local header and the data of
 * each member, then the central directory and its end record; no ZIP64 (an archive over 4 GiB is
 * refused), names in UTF-8 (flag 11 set where a name is not ASCII), times in MS-DOS form, local time,
 * as zip tools write them. Chosen over fflate's `zipSync` (which it replaces, byte layout and all but
 * the compressed data): fflate builds its Huffman tables when its module loads, 2-5 ms of every start.
 */
import { crc32, deflateRawSync } from 'node:zlib'

/** A member: its path in the archive, its bytes, and its modification time. */
export interface ZipMember {
  path: string
  content: Uint8Array
  mtime: Date
}

const LOCAL = 0x04034b50
const CENTRAL = 0x02014b50
const END = 0x06054b50
const MAX = 0xffffffff

/** The archive of `members`, in their order, each DEFLATEd at `level` (0: stored). */
export function zipArchive(members: readonly ZipMember[], level = 6): Buffer {
  const parts: Buffer[] = []
  const central: Buffer[] = []
  let offset = 0
  for (const member of members) {
    const name = Buffer.from(member.path, 'utf8')
    if (name.length > 0xffff) throw new RangeError(`zip: member name too long: ${member.path}`)
    const data = level === 0 ? Buffer.from(member.content) : deflateRawSync(member.content, { level })
    const fields = {
      utf8: name.length !== member.path.length,
      method: level === 0 ? 0 : 8,
      time: dosTime(member.mtime),
      crc: crc32(member.content),
      compressed: data.length,
      size: member.content.length,
      name,
    }
    parts.push(header(LOCAL, fields), name, data)
    central.push(header(CENTRAL, fields, offset), name)
    offset += 30 + name.length + data.length
    if (offset > MAX) throw new RangeError('zip: archive over 4 GiB')
  }
  const directory = Buffer.concat(central)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(END, 0)
  end.writeUInt16LE(members.length, 8)
  end.writeUInt16LE(members.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...parts, directory, end])
}

interface Fields {
  utf8: boolean
  method: number
  time: number
  crc: number
  compressed: number
  size: number
  name: Buffer
}

/** A local file header (30 bytes), or a central directory header (46) with the member's `offset`. */
function header(signature: number, f: Fields, offset?: number): Buffer {
  const central = offset !== undefined
  const out = Buffer.alloc(central ? 46 : 30)
  out.writeUInt32LE(signature, 0)
  // The central header has "version made by" (2.0, MS-DOS) before the fields both share.
  const at = central ? 6 : 4
  if (central) out.writeUInt16LE(20, 4)
  out.writeUInt16LE(20, at) // version needed to extract: 2.0 (DEFLATE)
  out.writeUInt16LE(f.utf8 ? 0x0800 : 0, at + 2)
  out.writeUInt16LE(f.method, at + 4)
  out.writeUInt32LE(f.time, at + 6)
  out.writeUInt32LE(f.crc, at + 10)
  out.writeUInt32LE(f.compressed, at + 14)
  out.writeUInt32LE(f.size, at + 18)
  out.writeUInt16LE(f.name.length, at + 22)
  // extra field length 0; in the central header also comment length, disk, attributes: 0
  if (central) out.writeUInt32LE(offset, 42)
  return out
}

/** MS-DOS date and time (local time, two-second steps) as one 32-bit value: date high, time low. */
function dosTime(at: Date): number {
  const year = at.getFullYear() - 1980
  if (year < 0 || year > 119) throw new RangeError(`zip: a time ZIP cannot hold: ${at.toISOString()}`)
  const date = (year << 9) | ((at.getMonth() + 1) << 5) | at.getDate()
  const time = (at.getHours() << 11) | (at.getMinutes() << 5) | (at.getSeconds() >> 1)
  return ((date << 16) | time) >>> 0
}
