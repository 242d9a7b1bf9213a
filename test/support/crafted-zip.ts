/*
 * Zip archives built byte by byte (stored, no compression), so that tests can hand the action what
 * no zip library would write: `../` and absolute names, symbolic links, sizes that lie.
 */
import { crc32 } from 'node:zlib'

export interface ZipMember {
  name: string
  data?: string | Buffer
  /** Unix mode with its file type (default a regular file 0o100644; 0o120777 is a symbolic link). */
  mode?: number
  /** The uncompressed size the headers claim (default the real one). */
  claimedSize?: number
}

const u16 = (n: number) => {
  const b = Buffer.alloc(2)
  b.writeUInt16LE(n)
  return b
}
const u32 = (n: number) => {
  const b = Buffer.alloc(4)
  b.writeUInt32LE(n >>> 0)
  return b
}

/** A zip of `members` as a Unix zip tool writes it (version made by 3.0, UTF-8 names). */
export function craftZip(members: ZipMember[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const m of members) {
    const name = Buffer.from(m.name, 'utf8')
    const data = Buffer.isBuffer(m.data) ? m.data : Buffer.from(m.data ?? '', 'utf8')
    const crc = crc32(data)
    const size = m.claimedSize ?? data.length
    const common = [u16(20), u16(0x0800), u16(0), u16(0), u16(0x21), u32(crc), u32(data.length), u32(size)]
    const local = Buffer.concat([u32(0x04034b50), ...common, u16(name.length), u16(0), name, data])
    centrals.push(
      Buffer.concat([
        u32(0x02014b50),
        u16((3 << 8) | 20),
        ...common,
        u16(name.length),
        u16(0),
        u16(0),
        u16(0),
        u16(0),
        u32((m.mode ?? (m.name.endsWith('/') ? 0o040755 : 0o100644)) * 0x10000),
        u32(offset),
        name,
      ]),
    )
    locals.push(local)
    offset += local.length
  }
  const central = Buffer.concat(centrals)
  const end = Buffer.concat([
    u32(0x06054b50),
    u16(0),
    u16(0),
    u16(members.length),
    u16(members.length),
    u32(central.length),
    u32(offset),
    u16(0),
  ])
  return Buffer.concat([...locals, central, end])
}
