import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { removeTree } from '../../../src/server/archive/remove-tree.js'

let work: string
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'remove-tree-'))
})
afterAll(() => rmSync(work, { recursive: true, force: true }))

describe('removeTree', () => {
  it('removes a folder of many entries and nested folders, and nothing beside it', () => {
    const dir = join(work, 'extracted')
    for (let i = 0; i < 300; i++) {
      mkdirSync(join(dir, `d${i % 7}`, 'deeper', `e${i % 3}`), { recursive: true })
      writeFileSync(join(dir, `d${i % 7}`, 'deeper', `e${i % 3}`, `f${i}`), 'x')
      writeFileSync(join(dir, `top${i}`), 'y')
    }
    mkdirSync(join(dir, 'empty'))
    writeFileSync(join(work, 'extracted.tar.gz'), 'kept')
    return removeTree(dir).then(() => {
      expect(existsSync(dir)).toBe(false)
      expect(existsSync(join(work, 'extracted.tar.gz'))).toBe(true)
    })
  })

  it('removes a file, and takes a missing path as removed', async () => {
    const file = join(work, 'file')
    writeFileSync(file, 'x')
    await removeTree(file)
    expect(existsSync(file)).toBe(false)
    await expect(removeTree(join(work, 'missing', 'deeper'))).resolves.toBeUndefined()
  })
})
