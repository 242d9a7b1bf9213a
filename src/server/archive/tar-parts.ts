import { ustarHeader, type TarEntry } from './tar-gz-writer.js'

/**
 * A tar archive in parts, as `git archive` writes one (`archive-tar.c`): a pax global header with
 * the commit's SHA as its `comment`, then each member, then the end-of-archive blocks. A name or
 * link target that does not fit ustar's 100 ASCII bytes gets a pax extended header (`path=`,
 * `linkpath=`), as git writes for long names. One member's bytes are held at a time.
 */

const BLOCK = 512

/** A member of a repository archive: its path (a folder's ends in `/`), permissions and bytes. */
export interface TarMember {
  path: string
  type: 'file' | 'directory' | 'symlink'
  mode: number
  /** A file's bytes, or a link's target. */
  content: Buffer
}

const fits = (s: string) => s.length <= 100 && /^[\x20-\x7e]*$/.test(s)

/** One pax record: `<length> <key>=<value>\n`, the length counting itself. */
function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`
  const bytes = Buffer.byteLength(body)
  let length = bytes + String(bytes).length
  if (String(length).length > String(bytes).length) length++
  return Buffer.from(`${length}${body}`, 'utf8')
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK)

/** A member's header, bytes and padding. */
const member = (entry: Omit<TarEntry, 'size'>, body: Buffer, mtime: Date) =>
  Buffer.concat([ustarHeader({ ...entry, size: body.length }, mtime), body, padding(body.length)])

/** The parts of the tar of `members` at commit `sha`, every member dated `mtime` (the commit's). */
export function* tarParts(sha: string, members: Iterable<TarMember>, mtime: Date): Generator<Buffer> {
  yield member(
    { name: 'pax_global_header', type: 'pax-global', mode: 0o666 },
    paxRecord('comment', sha),
    mtime,
  )
  let n = 0
  for (const m of members) {
    const link = m.type === 'symlink' ? m.content.toString('utf8') : undefined
    const pax = [
      ...(fits(m.path) ? [] : [paxRecord('path', m.path)]),
      ...(link === undefined || fits(link) ? [] : [paxRecord('linkpath', link)]),
    ]
    if (pax.length > 0)
      yield member({ name: `PaxHeaders/${n}`, type: 'pax', mode: 0o666 }, Buffer.concat(pax), mtime)
    const name = fits(m.path) ? m.path : `PaxHeaders/${n}-path`
    const linkname = link === undefined ? undefined : fits(link) ? link : 'PaxHeaders/linkpath'
    yield member(
      { name, type: m.type, mode: m.mode, ...(linkname === undefined ? {} : { linkname }) },
      m.type === 'file' ? m.content : Buffer.alloc(0),
      mtime,
    )
    n++
  }
  yield Buffer.alloc(2 * BLOCK)
}
