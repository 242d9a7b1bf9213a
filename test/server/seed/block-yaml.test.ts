import fc from 'fast-check'
import { dump, load } from 'js-yaml'
import { stringify } from 'yaml'
import { readBlockYaml } from '../../../src/server/seed/block-yaml.js'
import { issuesSeed } from '../../../bench/support/seeds.js'
import { TRICKY_SCALARS } from '../../support/yaml-scalars.js'

/** js-yaml's reading of `text`, or `thrown` when it refuses it. */
function jsYamlReads(text: string): unknown {
  try {
    return load(text)
  } catch {
    return 'thrown'
  }
}

/** Reads `text` with the block reader: what js-yaml reads when it reads it at all. */
function readsAsJsYaml(text: string): boolean {
  const read = readBlockYaml(text)
  if (read === undefined) return false
  expect(jsYamlReads(text)).not.toBe('thrown')
  expect(read).toStrictEqual(jsYamlReads(text))
  return true
}

describe('readBlockYaml', () => {
  it('reads the block style that yaml and js-yaml write, as js-yaml reads it', () => {
    // The seeds programs write: without this reader, js-yaml reads them (a seventh of serve's start).
    const seed = issuesSeed(50)
    expect(readsAsJsYaml(stringify(seed))).toBe(true)
    expect(readsAsJsYaml(dump(seed))).toBe(true)
    // Items at their key's own column, as PyYAML writes them.
    expect(readsAsJsYaml(stringify(seed, { indentSeq: false }))).toBe(true)
  })

  it('reads items at their key’s column, literal blocks, quotes, comment lines and empty collections', () => {
    const text = [
      '# a seed',
      'users:',
      '- username: root',
      '  admin: true',
      '  name: "Root: #1"',
      "  email: 'it''s@example.com'",
      '',
      'projects:',
      '  - path: acme/widgets',
      '    branches: [main, develop]',
      '    tags: []',
      '    members: {}',
      '    weight: 3',
      '    archived: ~',
      '    issues:',
      '      - title: a',
      '        description: |-',
      '          line 1',
      '',
      '            indented',
      '          # not a comment',
      '',
      '      - title: "\u00a0kept\u3000"',
      '        description: spaces\u00a0 ',
      '      - title: b',
      '        description: |',
      '          kept',
      '        state: closed',
      '',
    ].join('\n')
    expect(readsAsJsYaml(text)).toBe(true)
    expect(readBlockYaml(text)).toMatchObject({
      users: [{ username: 'root', admin: true, name: 'Root: #1', email: "it's@example.com" }],
      projects: [
        {
          branches: ['main', 'develop'],
          issues: [
            { description: 'line 1\n\n  indented\n# not a comment' },
            // YAML trims spaces, not other white space (as JavaScript's trim does).
            { title: '\u00a0kept\u3000', description: 'spaces\u00a0' },
            { description: 'kept\n' },
          ],
        },
      ],
    })
  })

  it('gives up on what it does not read, leaving it to js-yaml', () => {
    const unread = [
      'a: { b: c }\n', // a flow mapping
      'a: &x 1\nb: *x\n', // anchors and aliases
      'a: one\n  two\n', // a plain scalar on two lines
      'a: "one\n  two"\n', // a quoted one
      'a: >\n  folded\n', // folded and kept blocks, explicit indentation
      'a: |+\n  kept\n\n',
      'a: |2\n   x\n',
      'a: 1\na: 2\n', // a duplicate key (js-yaml refuses it)
      'null: 1\n', // keys js-yaml reads as something else
      'true: 1\n',
      '0x1F: 1\n',
      '"a": 1\n',
      '__proto__: 1\n',
      '<<: { a: 1 }\n',
      'a:\n\tb: 1\n', // a tab
      'a: 1\r\nb: 2\r\n', // CRLF
      'a: 1', // no final line break
      '---\na: 1\n', // document markers
      'a: 1\n...\n',
      `${Array.from({ length: 60 }, (_, i) => `${' '.repeat(i)}k:`).join('\n')} 1\n`, // deeper than js-yaml goes
      '- a\n', // not a mapping
      'a:\n  - - b\n', // nested compact items
      'a:\n  -\n', // an empty item
      'a: b: c\n', // a mapping inside a value
      'a: - x\n', // an item after a key
      'a: ?x\n', // a scalar starting with an indicator
      'a: x #c\n', // a trailing comment after a scalar
      'a:\n  b: 1\n c: 2\n', // odd indentation
      'a: \ud800\n', // a lone surrogate
      'a: \u0085\n',
      '',
      '# only a comment\n',
    ]
    for (const text of unread) expect([text, readBlockYaml(text)]).toEqual([text, undefined])
  })

  it('reads generated documents as js-yaml does, or gives up', () => {
    const key = fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom('a', 'b', 'title', 'a.b', 'x-y', 'Yes', '_', '1a') },
      fc.constantFrom('null', 'true', '1', '0x1F', '~', '.inf'),
    )
    const tricky = fc.constantFrom(...TRICKY_SCALARS)
    const scalar = fc.oneof(
      tricky,
      { weight: 3, arbitrary: fc.stringMatching(/^[A-Za-z0-9][\w ./:-]{0,20}$/) },
      fc.string({ maxLength: 12 }),
      fc.string({ unit: 'grapheme', maxLength: 12 }),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
    )
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof({ depthSize: 'small' }, scalar, tie('list'), tie('map')),
      list: fc.array(tie('tree'), { maxLength: 4 }),
      map: fc.dictionary(key, tie('tree'), { maxKeys: 4 }),
    }))
    const doc = fc.dictionary(key, tree, { minKeys: 1, maxKeys: 5 })
    const style = fc.constantFrom<(value: unknown) => string>(
      (value) => stringify(value),
      (value) => stringify(value, { indentSeq: false }),
      (value) => stringify(value, { indent: 4, lineWidth: 20 }),
      (value) => dump(value),
      (value) => dump(value, { seqNoIndent: true, lineWidth: 20 }),
    )
    let read = 0
    fc.assert(
      fc.property(doc, style, (value, write) => {
        if (readsAsJsYaml(write(value))) read++
      }),
      { numRuns: 1000 },
    )
    // Many are read, not merely given up on.
    expect(read).toBeGreaterThan(100)
  })
})
