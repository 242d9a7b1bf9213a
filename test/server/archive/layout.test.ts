import { exportFileName } from '../../../src/server/archive/layout.js'
import { ArchiveError, memberPath } from '../../../src/server/archive/safe-extract.js'
import { exportStatus } from '../../../src/server/services/exports.js'
import type { ExportRow } from '../../../src/server/store/exports.js'

describe('exportFileName', () => {
  it("uses GitLab's pattern: milliseconds, no seconds, path cut to 51 characters", () => {
    const at = new Date('2017-12-05T22:11:05.148Z')
    expect(exportFileName(at, 'namespace/project')).toBe(
      '2017-12-05_22-11-148_namespace_project_export.tar.gz',
    )
    const long = exportFileName(at, `group/${'p'.repeat(80)}`)
    expect(long).toBe(`2017-12-05_22-11-148_group_${'p'.repeat(24)}_export.tar.gz`)
  })
})

describe('memberPath', () => {
  it.each([
    ['./VERSION', 'VERSION'],
    ['tree/project.json', 'tree/project.json'],
    ['./', null],
    ['./tree//project/./x', 'tree/project/x'],
  ])('%s -> %s', (name, path) => expect(memberPath(name)).toBe(path))
  it.each(['../x', 'a/../../x', '/etc/passwd', 'a\\..\\b', 'a\0b'])('refuses %s', (name) =>
    expect(() => memberPath(name)).toThrow(ArchiveError),
  )
})

describe('exportStatus (Project#export_status)', () => {
  const row = (status: ExportRow['status'], file: string | null) => ({ status, file }) as ExportRow
  it.each([
    [undefined, 'none'],
    [row('queued', null), 'queued'],
    [row('started', null), 'started'],
    [row('queued', '/f'), 'regeneration_in_progress'],
    [row('started', '/f'), 'regeneration_in_progress'],
    [row('finished', '/f'), 'finished'],
    [row('finished', null), 'none'],
    [row('failed', null), 'failed'],
  ])('%j -> %s', (given, status) => expect(exportStatus(given)).toBe(status))
})
