import {
  bool,
  duration,
  keyValues,
  list,
  oneOf,
  parseInputs,
  positiveInt,
  stringMap,
  type InputTable,
} from '../../src/actions/inputs.js'
import { catalog } from '../../src/actions/catalog.js'
import { escapeHtml, link, table } from '../../src/actions/summary.js'

const source = (inputs: Record<string, string>, env: Record<string, string> = {}) => {
  const masked: string[] = []
  return {
    masked,
    getInput: (name: string) => inputs[name] ?? '',
    getEnv: (name: string) => env[name],
    setSecret: (v: string) => void masked.push(v),
  }
}

describe('input parsers', () => {
  it('bool accepts what getBooleanInput accepts and names the input otherwise', () => {
    expect(['true', 'True', 'TRUE'].map((v) => bool(v, 'wait'))).toEqual([true, true, true])
    expect(['false', 'False', 'FALSE'].map((v) => bool(v, 'wait'))).toEqual([false, false, false])
    expect(() => bool('yes', 'wait')).toThrow("Input 'wait' must be true or false, got 'yes'")
  })

  it('duration reads units, combinations and bare seconds', () => {
    expect(duration('30m', 't')).toBe(1_800_000)
    expect(duration('1h30m', 't')).toBe(5_400_000)
    expect(duration('90s', 't')).toBe(90_000)
    expect(duration('45', 't')).toBe(45_000)
    expect(duration('250ms', 't')).toBe(250)
    expect(() => duration('soon', 'timeout')).toThrow(
      "Input 'timeout' must be a duration such as 90s, 30m or 1h30m (bare numbers are seconds), got 'soon'",
    )
    expect(() => duration('5x', 't')).toThrow()
  })

  it('positive whole numbers, enums and lists', () => {
    expect(positiveInt('4', 'concurrency')).toBe(4)
    expect(() => positiveInt('0', 'concurrency')).toThrow(
      "Input 'concurrency' must be a whole number of at least 1, got '0'",
    )
    expect(() => oneOf(['fail', 'pass'] as const)('maybe', 'on-manual')).toThrow(
      "Input 'on-manual' must be one of fail, pass, got 'maybe'",
    )
    expect(list('a/b\n\n  c/d , e\n# comment\n')).toEqual(['a/b', 'c/d', 'e'])
  })

  it('maps from NAME=value lines, YAML or JSON; values never echoed', async () => {
    expect(await stringMap('A=1\nB = x=y\n', 'variables')).toEqual({ A: '1', B: 'x=y' })
    expect(await stringMap('A: 1\nB: two', 'variables')).toEqual({ A: '1', B: 'two' })
    expect(await keyValues('{"visibility": "private", "x": true}', 'o')).toEqual({
      visibility: 'private',
      x: true,
    })
    await expect(stringMap('just-a-secret-value', 'variables')).rejects.toThrow(
      "Input 'variables' must be NAME=value lines, or a YAML or JSON map of names to values",
    )
    await expect(keyValues('A: [1, 2]', 'o')).rejects.toThrow("Input 'o': the value of 'A' must be a scalar")
  })
})

describe('parseInputs', () => {
  const table = {
    url: { description: 'u', env: ['CI_SERVER_URL'], default: 'https://gitlab.com' },
    token: { description: 't', required: true, secret: true, parse: (t: string) => t.toUpperCase() },
    'poll-interval': { description: 'p', default: '5s', parse: duration },
    extra: { description: 'e' },
  } satisfies InputTable

  it('applies env fallbacks, defaults and parsers; camelCases names; masks secrets first', async () => {
    const s = source({ token: 'abc' }, { CI_SERVER_URL: 'https://gl.example' })
    expect(await parseInputs(table, s)).toEqual({
      url: 'https://gl.example',
      token: 'ABC',
      pollInterval: 5000,
      extra: undefined,
    })
    expect(s.masked).toEqual(['abc'])
    expect((await parseInputs(table, source({ token: 'x' }))).url).toBe('https://gitlab.com')
  })

  it('every token, key and signed-URL input of every action is masked', () => {
    const credentials = /token|secret|access-key|^url$|upload-url/
    const named = catalog.flatMap((e) =>
      Object.entries(e.inputs)
        .filter(([name]) => credentials.test(name))
        .map(([name, spec]) => [`${e.name}.${name}`, spec.secret === true]),
    )
    expect(named.length).toBeGreaterThanOrEqual(9)
    expect(named.filter(([, masked]) => !masked)).toEqual([])
  })

  it('names a missing required input and hides secret values in parse errors', async () => {
    await expect(parseInputs(table, source({}))).rejects.toThrow('Input required and not supplied: token')
    const bad = {
      token: { description: 't', secret: true, parse: (_t: string, n: string) => bool(_t, n) },
    } satisfies InputTable
    await expect(parseInputs(bad, source({ token: 'glpat-x' }))).rejects.toThrow(
      "Input 'token' is not valid (the value is secret, not shown)",
    )
  })
})

describe('summary helpers', () => {
  it('escape everything from GitLab, and only link http(s)', () => {
    expect(escapeHtml(`<img src=x onerror="a">&'`)).toBe('&#60;img src=x onerror=&#34;a&#34;&#62;&#38;&#39;')
    expect(link('<b>', 'javascript:alert(1)').html).toBe('&#60;b&#62;')
    expect(link('x', 'https://e.com/?a="b"').html).toBe('<a href="https://e.com/?a=&#34;b&#34;">x</a>')
    expect(table(['h'], [['<i>']]).html).toBe(
      '<table><tr><th>h</th></tr><tr><td>&#60;i&#62;</td></tr></table>',
    )
  })
})
