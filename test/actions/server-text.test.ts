import { join, resolve } from 'node:path'
import { fileNameOf } from '../../src/actions/export-project/run.js'
import { escapeHtml } from '../../src/actions/summary.js'
import { oneLine, pathInside, safeFileName, shaped, urlOnHost } from '../../src/actions/server-text.js'

describe('server text', () => {
  it('oneLine: no line break, no control character, no leading ::', () => {
    expect(oneLine('a\r\n::add-mask::x\u2028\u001b[31m\u0085b\tc')).toBe(
      'a\\r\\n::add-mask::x\\u2028\\u001b[31m\\u0085b\\tc',
    )
    expect(oneLine('  ::stop-commands::TOKEN')).toBe('  \\::stop-commands::TOKEN')
    expect(oneLine('acme/widgets')).toBe('acme/widgets')
    expect(oneLine(undefined)).toBe('')
  })

  it("oneLine: no `##[` anywhere in the line (the runner's older command form), not even with invisible characters inside", () => {
    expect(oneLine('created for aaaa: x ##[set-output name=web-url]https://evil.example/$(id)')).toBe(
      'created for aaaa: x ##\\[set-output name=web-url]https://evil.example/$(id)',
    )
    expect(oneLine('###[a] ##[b]')).toBe('###\\[a] ##\\[b]')
    // ICU's comparisons skip soft hyphens, zero-width characters and variation selectors.
    expect(oneLine('#\u00ad#[add-mask]x #\u200b#\ufe0f[x]')).toBe('#\u00ad#\\[add-mask]x #\u200b#\ufe0f\\[x]')
    expect(oneLine('\ufeff\u200b::add-mask::x')).toBe('\ufeff\u200b\\::add-mask::x')
    for (const text of ['##[error]x', 'a ##[warning]b', '#\u2060#[debug]c', '#\u0301#\u{e0041}[c'])
      // As a comparison that skips them sees it: no `##[`.
      expect(
        oneLine(text).replace(/[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Mn}\p{Me}]/gu, ''),
      ).not.toContain('##[')
    // Linear time on hostile runs of invisible characters (a nested quantifier took seconds at 24).
    const started = Date.now()
    for (const text of [
      '\u200b'.repeat(100_000),
      ` ${'#\u200b'.repeat(50_000)}`,
      `#${'\u200b'.repeat(100_000)}#`,
    ])
      expect(oneLine(`${text}x`)).toHaveLength(text.length + 1)
    expect(Date.now() - started).toBeLessThan(5000)
    // Text without a command keeps its emoji (variation selectors, joiners) as they are.
    expect(oneLine('❤️ 👨‍👩‍👧 #1 [x]')).toBe('❤️ 👨‍👩‍👧 #1 [x]')
    expect(escapeHtml('x ##[set-output name=a]b')).toBe('x ##&#91;set-output name=a]b')
  })

  it('shaped: SHAs, GitLab paths and status words, and nothing else', () => {
    const sha = 'ab12'.repeat(10)
    expect(shaped(sha, 'sha')).toBe(sha)
    expect(shaped('c'.repeat(64), 'sha')).toBe('c'.repeat(64))
    for (const bad of [`${sha}$(id)`, sha.toUpperCase(), 'a'.repeat(39), `${sha}\n`, 42, undefined])
      expect(shaped(bad, 'sha')).toBeUndefined()
    for (const ok of ['acme/widgets', 'a/b.c/d_e-f', 'x', '_a/.b']) expect(shaped(ok, 'path')).toBe(ok)
    for (const bad of [
      'acme/x##[set-output name=a]b',
      'acme/$(id)',
      'acme/x\n::warning::y',
      '/acme',
      'acme/',
      'acme//x',
      '-acme/x',
      'acme/x.',
      'acme/..',
      'acme x',
    ])
      expect(shaped(bad, 'path')).toBeUndefined()
    expect(shaped('waiting_for_resource', 'word')).toBe('waiting_for_resource')
    for (const bad of ['success ##[x]', 'Success', 'failed;id', ''])
      expect(shaped(bad, 'word')).toBeUndefined()
  })

  it('urlOnHost: only plain http(s) addresses on the configured GitLab host', () => {
    const base = 'https://gitlab.example.com/gitlab'
    const ok = 'https://gitlab.example.com/gitlab/acme/app/-/pipelines/7'
    expect(urlOnHost(ok, base)).toBe(ok)
    for (const bad of [
      `${ok}\n::add-mask::x`,
      'https://evil.example.com/acme/app/-/pipelines/7',
      'javascript:alert(1)',
      'https://gitlab.example.com/$(curl evil.example.com)',
      'https://gitlab.example.com/a";rm -rf ~;"',
      'https://user:pw@gitlab.example.com/x',
      'ftp://gitlab.example.com/x',
      42,
    ])
      expect(urlOnHost(bad, base)).toBeUndefined()
  })

  it('archive names are safe on every platform and stay inside download-dir', () => {
    expect(fileNameOf('acme/widgets')).toBe('acme_widgets_export.tar.gz')
    expect(fileNameOf('..\\..\\evil')).toBe('______evil_export.tar.gz')
    expect(fileNameOf('../../evil')).toBe('______evil_export.tar.gz')
    expect(fileNameOf('acme/x\n::warning::y')).toBe('acme_x___warning__y_export.tar.gz')
    expect(fileNameOf('a<b>c:d"e|f?g*h')).toBe('a_b_c_d_e_f_g_h_export.tar.gz')
    expect(safeFileName('CON')).toBe('_CON')
    expect(safeFileName('lpt1.txt')).toBe('_lpt1.txt')
    expect(safeFileName('..')).toBe('__')
    expect(safeFileName('name. ')).toBe('name_')
    expect(safeFileName('x'.repeat(300))).toHaveLength(200)
    const dir = resolve('/tmp/downloads')
    expect(pathInside(dir, 'a_export.tar.gz')).toBe(join(dir, 'a_export.tar.gz'))
    expect(() => pathInside(dir, '../evil')).toThrow(`refusing to write outside ${dir}`)
    expect(() => pathInside(dir, '/etc/passwd')).toThrow('refusing to write outside')
  })
})
