import {
  RELEASE_RULES,
  applies,
  atLeast,
  defaultMaxImportSize,
  importRoleFor,
  parseVersion,
  supportedVersion,
  taskStatusNoun,
} from '../../../src/server/domain/releases.js'
import { serve } from '../../../src/cli/serve.js'
import { buildServer } from '../../../src/server/start/build-server.js'
import { startServer } from '../../support/server.js'
import { widgetsSeed } from '../../support/seeds.js'

describe('GitLab release numbers', () => {
  it('parses X.Y.Z', () => {
    expect(parseVersion('17.11.2')).toEqual({ major: 17, minor: 11, patch: 2 })
    expect(parseVersion('13.0.0')).toEqual({ major: 13, minor: 0, patch: 0 })
  })

  it.each([
    '',
    '18',
    '18.0',
    '18.0.0-ee',
    'v18.0.0',
    '18.0.0.1',
    '18.01.0',
    ' 18.0.0',
    '18.a.0',
    '99999.0.0',
  ])('rejects %p, naming the expected form', (text) => {
    expect(() => parseVersion(text)).toThrow(/must look like X\.Y\.Z/)
  })

  it('compares minors numerically, not as text', () => {
    expect(atLeast('16.11.0', '16.2')).toBe(true)
    expect(atLeast('16.2.0', '16.11')).toBe(false)
    expect(atLeast('17.0.0', '17.0')).toBe(true)
    expect(atLeast('16.11.9', '17.0')).toBe(false)
    expect(atLeast('18.6.0', '17.0')).toBe(true)
    expect(atLeast('13.8.0', '13.8')).toBe(true)
    expect(atLeast('13.7.9', '13.8')).toBe(false)
    expect(() => atLeast('18.0.0', '18')).toThrow(/X\.Y/)
  })

  it('supports 13.0 to 18.x and names the range otherwise', () => {
    expect(supportedVersion('13.0.0').major).toBe(13)
    expect(supportedVersion('18.99.3').minor).toBe(99)
    for (const text of ['12.10.14', '19.0.0', '8.5.0'])
      expect(() => supportedVersion(text)).toThrow(`GitLab version ${text} is not supported`)
    expect(() => supportedVersion('19.0.0')).toThrow('GitLab 13.0 to 18.x')
    expect(() => supportedVersion('latest')).toThrow(/X\.Y\.Z/)
  })
})

describe('release-tied rules', () => {
  it('every rule names a valid X.Y boundary', () => {
    for (const rule of Object.values(RELEASE_RULES)) expect(rule.since).toMatch(/^\d+\.\d+$/)
    expect(applies('16.11.0', 'runnerRegistrationTokenGone')).toBe(false)
    expect(applies('17.0.0', 'runnerRegistrationTokenGone')).toBe(true)
    expect(applies('17.11.0', 'resetRegistrationTokenGone')).toBe(false)
    expect(applies('18.0.0', 'resetRegistrationTokenGone')).toBe(true)
  })

  it('max_import_size defaults to 50 MB before 13.8, then 0 (unlimited)', () => {
    expect(defaultMaxImportSize('13.0.0')).toBe(52_428_800)
    expect(defaultMaxImportSize('13.7.12')).toBe(52_428_800)
    expect(defaultMaxImportSize('13.8.0')).toBe(0)
    expect(defaultMaxImportSize('18.6.0')).toBe(0)
  })

  it('importing into a group needs Developer before 16.0, Maintainer from 16.0', () => {
    expect(importRoleFor('15.11.13')).toBe(30)
    expect(importRoleFor('16.0.0')).toBe(40)
    expect(importRoleFor('18.6.0')).toBe(40)
  })

  it('task_status says tasks before 16.0 and checklist items from it, singular for one', () => {
    expect(taskStatusNoun('15.11.0', 0)).toBe('tasks')
    expect(taskStatusNoun('15.11.0', 1)).toBe('task')
    expect(taskStatusNoun('16.0.0', 0)).toBe('checklist items')
    expect(taskStatusNoun('16.0.0', 1)).toBe('checklist item')
    expect(taskStatusNoun('16.0.0', 2)).toBe('checklist items')
  })
})

describe('start-up with a version', () => {
  it('serve --gitlab-version rejects a malformed or unsupported release before starting', async () => {
    await expect(serve(['--port', '0', '--gitlab-version', '18.0'])).rejects.toThrow(
      "--gitlab-version: GitLab version must look like X.Y.Z (for example 17.11.2), got '18.0'",
    )
    await expect(serve(['--port', '0', '--gitlab-version', '12.10.0'])).rejects.toThrow(
      '--gitlab-version: GitLab version 12.10.0 is not supported: the server behaves as GitLab 13.0 to 18.x',
    )
  })

  it('buildServer refuses a version it cannot behave as, instead of answering 500 later', async () => {
    await expect(buildServer({ gitlabVersion: 'nope' })).rejects.toThrow(/X\.Y\.Z/)
    await expect(buildServer({ gitlabVersion: '19.1.0' })).rejects.toThrow(/13\.0 to 18\.x/)
    const server = await buildServer({ gitlabVersion: '13.0.0' })
    await server.close()
  })
})

describe('keyset pagination of project issues, from 18.3', () => {
  it('before 18.3 ignores pagination=keyset and cursor (offset pages, nothing of them in the links); from 18.3 pages by cursor', async () => {
    const query = 'pagination=keyset&per_page=2&order_by=created_at&cursor=abc'
    for (const [version, keyset] of [
      ['18.2.0', false],
      ['18.3.0', true],
    ] as const) {
      const t = await startServer(widgetsSeed, { gitlabVersion: version })
      try {
        const res = await t.http('GET', '/api/v4/projects/acme%2Fwidgets/issues', {
          token: 'glpat-root-token',
          query: keyset ? 'pagination=keyset&per_page=2&order_by=created_at' : query,
        })
        expect([version, res.status]).toEqual([version, 200])
        expect((res.body as unknown[]).length).toBe(2)
        if (keyset) {
          expect(res.headers).not.toHaveProperty('x-page')
          expect(res.headers.link).toMatch(/cursor=[^&>]+.*rel="next"/)
        } else {
          expect(res.headers).toMatchObject({ 'x-page': '1', 'x-next-page': '2' })
          expect(res.headers).toHaveProperty('x-total')
          expect(res.headers.link).not.toMatch(/pagination=|cursor=/)
        }
      } finally {
        await t.close()
      }
    }
  })
})
