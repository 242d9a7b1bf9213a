import {
  logTail,
  maskSecrets,
  resolveLine,
  TailCollector,
  tokensIn,
} from '../../../src/actions/trigger-pipeline/log-tail.js'

const E = '\x1b'
/** A failed job's trace as gitlab-runner writes it: sections, colours, a progress bar, the failure line. */
const TRACE = [
  `${E}[0KRunning with gitlab-runner 18.6.0 (abc)${E}[0;m`,
  `section_start:1733490000:prepare_executor\r${E}[0K${E}[0K${E}[36;1mPreparing the "docker" executor${E}[0;m${E}[0;m`,
  'Using Docker executor with image node:24 ...',
  `section_end:1733490001:prepare_executor\r${E}[0K`,
  `section_start:1733490002:step_script[collapsed=true]\r${E}[0K${E}[0K${E}[36;1mExecuting "step_script" stage of the job script${E}[0;m${E}[0;m`,
  `${E}[32;1m$ npm ci${E}[0;m`,
  'Downloading  10%\rDownloading  55%\rDownloading 100%',
  `${E}[32;1m$ echo token is glpat-secret-value-1234${E}[0;m`,
  'token is glpat-secret-value-1234',
  `${E}[32;1m$ exit 1${E}[0;m`,
  `section_end:1733490003:step_script\r${E}[0K${E}[31;1mERROR: Job failed: exit code 1`,
  `${E}[0;m`,
  '',
].join('\n')

describe('logTail', () => {
  it('folds sections into header lines, strips colours, resolves progress and masks tokens', () => {
    expect(logTail(TRACE, { lines: 40, secrets: ['glpat-secret-value-1234'] })).toEqual([
      'Running with gitlab-runner 18.6.0 (abc)',
      '▸ Preparing the "docker" executor',
      'Using Docker executor with image node:24 ...',
      '▸ Executing "step_script" stage of the job script',
      '$ npm ci',
      'Downloading 100%',
      '$ echo token is ***',
      'token is ***',
      '$ exit 1',
      'ERROR: Job failed: exit code 1',
    ])
  })

  it('keeps only the last lines, counted after folding', () => {
    expect(logTail(TRACE, { lines: 3, secrets: [] })).toEqual([
      'token is ***',
      '$ exit 1',
      'ERROR: Job failed: exit code 1',
    ])
  })

  it('names a section by its name when it has no header text', () => {
    expect(
      logTail(`section_start:1:upload_artifacts\r${E}[0K\nsection_end:2:upload_artifacts\r${E}[0K\n`, {
        lines: 5,
        secrets: [],
      }),
    ).toEqual(['▸ upload_artifacts'])
  })

  it('gives the same tail whatever the pieces a trace arrives in, holding only a bounded window', () => {
    const whole = logTail(TRACE, { lines: 5, secrets: [] })
    for (const size of [1, 2, 7, 64]) {
      const tail = new TailCollector({ lines: 5, secrets: [] })
      for (let i = 0; i < TRACE.length; i += size) tail.push(TRACE.slice(i, i + size))
      expect(tail.end()).toEqual(whole)
    }
    const big = new TailCollector({ lines: 2, secrets: [] })
    for (let i = 0; i < 100_000; i++) big.push(`line ${i}\n`)
    expect(big.end()).toEqual(['line 99998', 'line 99999'])
    expect((big as unknown as { kept: string[] }).kept.length).toBeLessThan(100)
  })

  it('masks a secret cut in two by a colour escape, and the longest secret first', () => {
    expect(logTail(`abc${E}[1mdef-ghi\n`, { lines: 5, secrets: ['abcdef', 'abcdef-ghi'] })).toEqual(['***'])
  })
})

describe('resolveLine', () => {
  it('overwrites from the start after a carriage return, as a terminal does', () => {
    expect(resolveLine('abcdef\rXY')).toBe('XYcdef')
    expect(resolveLine(`abcdef\r${E}[0KXY`)).toBe('XY')
    expect(resolveLine('done\r')).toBe('done')
  })

  it('drops OSC links, bells and other control characters but keeps tabs and text', () => {
    expect(resolveLine(`a\tb${E}]8;;https://x.test\x07link${E}]8;;\x07\x07\x00c`)).toBe('a\tblinkc')
  })
})

describe('TailCollector.tokens', () => {
  it('lists the token-shaped strings of the lines it returns, not of those it dropped', () => {
    const tail = new TailCollector({ lines: 1, secrets: [] })
    tail.push('old glpat-AAAAAAAAAAAAAAAAAAAA\nnew glcbt-64_BBBBBBBBBBBBBBBBBBBB\n')
    expect(tail.end()).toEqual(['new ***'])
    expect([...tail.tokens]).toEqual(['glcbt-64_BBBBBBBBBBBBBBBBBBBB'])
  })
})

describe('maskSecrets and tokensIn', () => {
  it('masks GitLab-shaped tokens the action was never given', () => {
    const text = 'job token glcbt-64_abcdefghijklmnopqrstu and deploy token gldt-ABCDEFGHIJKLMNOPQRST'
    expect(maskSecrets(text, [])).toBe('job token *** and deploy token ***')
    expect(tokensIn(text)).toEqual(['glcbt-64_abcdefghijklmnopqrstu', 'gldt-ABCDEFGHIJKLMNOPQRST'])
    expect(maskSecrets('glossary-term and gl-short', [])).toBe('glossary-term and gl-short')
  })
})
