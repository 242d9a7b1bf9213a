import { spawnSync } from 'node:child_process'
import { gzipSync } from 'node:zlib'
import { tarParts, type TarMember } from '../../../src/server/archive/tar-parts.js'
import { tarGzMembers } from '../../support/archive-members.js'

const SHA = 'a'.repeat(40)
const file = (path: string, content = path): TarMember => ({
  path,
  type: 'file',
  mode: 0o664,
  content: Buffer.from(content),
})

describe('tarParts', () => {
  // A pax record counts its own length: around 100 bytes its length gains a digit (`99 ` vs `101 `).
  const names = Array.from({ length: 120 }, (_, i) => `p/${'x'.repeat(i + 1)}`)
  const members = [
    ...names.map((n) => file(n)),
    file('p/ünïcode.md', 'u'),
    { path: 'p/link', type: 'symlink' as const, mode: 0o775, content: Buffer.from(`../${'y'.repeat(120)}`) },
  ]
  const tar = Buffer.concat([...tarParts(SHA, members, new Date('2026-01-01T00:00:00Z'))])

  it('names every member exactly, long and non-ASCII ones through pax headers (tar-stream)', async () => {
    const read = await tarGzMembers(gzipSync(tar))
    expect([...read.keys()]).toEqual([...names, 'p/ünïcode.md', 'p/link'])
    expect(read.get(names[119]!)!.body).toBe(names[119])
  })

  it('is read by GNU tar and git: modes, the link target, the commit in the global header', () => {
    const list = spawnSync('tar', ['-tvf', '-'], { input: tar, env: { ...process.env, TZ: 'UTC' } })
    expect(list.status).toBe(0)
    const lines = list.stdout.toString().trim().split('\n')
    expect(lines).toHaveLength(122)
    expect(lines[0]).toMatch(/^-rw-rw-r-- 0\/0 +3 2026-01-01 00:00 p\/x$/)
    expect(lines[121]).toMatch(new RegExp(`^lrwxrwxr-x .* p/link -> \\.\\./${'y'.repeat(120)}$`))
    expect(spawnSync('git', ['get-tar-commit-id'], { input: tar }).stdout.toString()).toBe(`${SHA}\n`)
  })
})
