import {
  commandLine,
  expand,
  plainTrace,
  runScript,
  workspacePath,
} from '../../../src/server/ci/job-script.js'
import { runJob, traceHeader } from '../../../src/server/ci/job-run.js'
import type { JobDefinition } from '../../../src/server/ci/job-definition.js'

const G = '\x1b[32;1m'
const R = '\x1b[0;m'
const vars = new Map([
  ['CI_JOB_NAME', 'build'],
  ['GREETING', 'hello'],
])
const definition = (over: Partial<JobDefinition>): JobDefinition => ({
  script: [],
  after_script: [],
  when: 'on_success',
  allow_failure: false,
  needs: null,
  variables: {},
  ...over,
})
const text = (ws: Map<string, Buffer>, path: string) => ws.get(path)?.toString('utf8')

describe('runScript', () => {
  it('prints each command as the runner does, then what echo prints, with variables expanded', () => {
    const ws = new Map<string, Buffer>()
    const r = runScript(['echo "$GREETING ${CI_JOB_NAME}"', "echo '$GREETING'", 'make all'], vars, ws)
    expect(r).toEqual({
      exitCode: 0,
      output:
        `${G}$ echo "$GREETING \${CI_JOB_NAME}"${R}\nhello build\n` +
        `${G}$ echo '$GREETING'${R}\n$GREETING\n` +
        `${G}$ make all${R}\n`,
    })
  })

  it('writes and appends files in the workspace, and cat prints them', () => {
    const ws = new Map<string, Buffer>()
    const r = runScript(
      ['echo one > out.txt', 'echo two >> ./out.txt', 'echo -n x > dir/a.txt', 'cat out.txt'],
      vars,
      ws,
    )
    expect(r.exitCode).toBe(0)
    expect(text(ws, 'out.txt')).toBe('one\ntwo\n')
    expect(text(ws, 'dir/a.txt')).toBe('x')
    expect(r.output.endsWith(`${G}$ cat out.txt${R}\none\ntwo\n`)).toBe(true)
    expect(r.output).not.toContain('\none\n$')
  })

  it('stops at exit N with its code, and at false or a missing file with 1', () => {
    const ws = new Map<string, Buffer>()
    expect(runScript(['echo a', 'exit 3', 'echo never'], vars, ws)).toEqual({
      exitCode: 3,
      output: `${G}$ echo a${R}\na\n${G}$ exit 3${R}\n`,
    })
    expect(runScript(['exit'], vars, ws).exitCode).toBe(0)
    expect(runScript(['false', 'echo never'], vars, ws).exitCode).toBe(1)
    const missing = runScript(['cat nope.txt'], vars, ws)
    expect(missing).toEqual({
      exitCode: 1,
      output: `${G}$ cat nope.txt${R}\ncat: nope.txt: No such file or directory\n`,
    })
  })

  it('keeps variables set by export and assignments for the lines after', () => {
    const ws = new Map<string, Buffer>()
    const r = runScript(['export A=1', 'B=two', 'echo $A-$B > v.txt'], vars, ws)
    expect(r.exitCode).toBe(0)
    expect(text(ws, 'v.txt')).toBe('1-two\n')
    expect(vars.has('A')).toBe(false)
  })

  it('never writes outside the workspace', () => {
    const ws = new Map<string, Buffer>()
    runScript(['echo x > /etc/passwd', 'echo y > ../up.txt', 'echo z > a/../b.txt'], vars, ws)
    expect([...ws.keys()]).toEqual(['b.txt'])
    expect(workspacePath('./a//b')).toBe('a/b')
    expect(workspacePath('a/../..')).toBeUndefined()
  })

  it('collapses a multi-line command to its first line', () => {
    expect(commandLine('if true; then\n  echo x\nfi\n')).toBe(
      `${G}$ if true; then # collapsed multi-line command${R}\n`,
    )
    expect(expand('${X}$Y$', new Map([['X', '1']]))).toBe('1$')
  })
})

describe('runJob', () => {
  const at = { startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:05.000Z' }

  it('lays out sections and ends with Job succeeded; a running trace is its header', () => {
    const r = runJob({
      name: 'build',
      definition: definition({ script: ['echo hi'] }),
      variables: vars,
      ...at,
    })
    expect(r.status).toBe('success')
    expect(r.trace.startsWith(traceHeader(at.startedAt))).toBe(true)
    expect(r.trace).toContain('section_start:1767225600:step_script\r\x1b[0K')
    expect(r.trace).toContain(`${G}$ echo hi${R}\nhi\nsection_end:1767225605:step_script\r\x1b[0K\n`)
    expect(r.trace.endsWith(`${G}Job succeeded${R}\n`)).toBe(true)
    expect(r.artifacts).toBeUndefined()
  })

  it('fails on exit 1 with the runner failure line, and after_script still runs with CI_JOB_STATUS', () => {
    const r = runJob({
      name: 'test',
      definition: definition({
        script: ['echo bad > report.txt', 'exit 1'],
        after_script: ['echo "after $CI_JOB_STATUS"'],
      }),
      variables: vars,
      ...at,
    })
    expect(r).toMatchObject({ status: 'failed', exitCode: 1, allowedFailure: false })
    expect(r.trace).toContain('section_start:1767225605:after_script')
    expect(r.trace).toContain('after failed\n')
    expect(r.trace.endsWith('\x1b[31;1mERROR: Job failed: exit code 1\n\x1b[0;m\n')).toBe(true)
  })

  it('collects artifacts by glob, folder or name when artifacts:when matches the outcome', () => {
    const script = [
      'echo a > out.txt',
      'echo b > logs/x.log',
      'echo c > logs/deep/y.log',
      'echo d > other.md',
    ]
    const ok = runJob({
      name: 'b',
      definition: definition({
        script,
        artifacts: { paths: ['out.txt', 'logs/', 'missing.bin'], when: 'on_success' },
      }),
      variables: vars,
      ...at,
    })
    expect(ok.artifacts).toEqual(['logs/deep/y.log', 'logs/x.log', 'out.txt'])
    expect(ok.trace).toContain('section_start:1767225605:upload_artifacts_on_success')
    expect(ok.trace).toContain('WARNING: missing.bin: no matching files')
    const failed = runJob({
      name: 'b',
      definition: definition({
        script: [...script, 'exit 2'],
        artifacts: { paths: ['*.md'], when: 'on_success' },
      }),
      variables: vars,
      ...at,
    })
    expect(failed.artifacts).toBeUndefined()
    const always = runJob({
      name: 'b',
      definition: definition({
        script: [...script, 'exit 2'],
        artifacts: { paths: ['*.md'], when: 'always' },
      }),
      variables: vars,
      ...at,
    })
    expect(always.artifacts).toEqual(['other.md'])
    expect(always.trace).toContain('upload_artifacts_on_failure')
  })

  it('lets allow_failure and its exit_codes pass a failure', () => {
    const run = (allow_failure: JobDefinition['allow_failure'], code: number) =>
      runJob({
        name: 'x',
        definition: definition({ script: [`exit ${code}`], allow_failure }),
        variables: vars,
        ...at,
      })
    expect(run(true, 1).allowedFailure).toBe(true)
    expect(run({ exit_codes: [137] }, 137)).toMatchObject({ status: 'failed', allowedFailure: true })
    expect(run({ exit_codes: [137] }, 1).allowedFailure).toBe(false)
  })

  it('gives a job without a definition a plain trace with its name, forced to fail when told', () => {
    const r = runJob({ name: 'deploy', variables: vars, forced: 'failed', ...at })
    expect(r.trace).toContain(`${G}$ echo "deploy"${R}\ndeploy\n`)
    expect(r).toMatchObject({ status: 'failed', exitCode: 1 })
  })
})

describe('plainTrace', () => {
  it('leaves the text a reader sees: no section markers, no colours', () => {
    const r = runJob({
      name: 'build',
      definition: definition({ script: ['echo hi'] }),
      variables: vars,
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:00:05.000Z',
    })
    const plain = plainTrace(r.trace)
    expect(plain).not.toContain('section_')
    expect(plain).not.toContain('\x1b')
    expect(plain).toContain('Executing "step_script" stage of the job script\n$ echo hi\nhi\nCleaning up')
    expect(plain.endsWith('Job succeeded\n')).toBe(true)
  })
})
