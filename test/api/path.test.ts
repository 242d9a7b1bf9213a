import { path } from '../../src/api/path.js'

describe('path', () => {
  it('encodes a full path as one segment and keeps numbers as they are', () => {
    expect(path`/projects/${'acme/widgets'}/issues/${3}`).toBe('/projects/acme%2Fwidgets/issues/3')
    expect(path`/projects/${42}`).toBe('/projects/42')
  })

  it('encodes characters that would change the URL: ?, #, %, space, unicode', () => {
    expect(path`/groups/${'a?b#c%d e/ü'}`).toBe('/groups/a%3Fb%23c%25d%20e%2F%C3%BC')
  })

  it('leaves the literal parts alone, with values at the start, middle and end', () => {
    expect(path`${'a/b'}`).toBe('a%2Fb')
    expect(path`/x/${'a'}${'b'}/y`).toBe('/x/ab/y')
    expect(path`/version`).toBe('/version')
  })

  it('refuses empty, . and .. values, which would address another resource', () => {
    expect(() => path`/projects/${''}/issues`).toThrow(new TypeError('path segment 1 must not be empty'))
    expect(() => path`/projects/${'..'}/issues`).toThrow("path segment 1 must not be '..'")
    expect(() => path`/projects/${1}/issues/${'.'}`).toThrow("path segment 2 must not be '.'")
    expect(path`/projects/${'...'}`).toBe('/projects/...')
  })
})
