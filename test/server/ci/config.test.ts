import { compileChildConfig, compileCiConfig, type CompiledConfig } from '../../../src/server/ci/config.js'
import { NO_SOURCES } from '../../../src/server/ci/config-merge.js'
import { evaluate } from '../../../src/server/ci/expressions.js'
import { planPipeline, type PipelinePlan } from '../../../src/server/ci/pipeline-plan.js'

const files = (map: Record<string, string>) => (path: string) => map[path]
const none = files({})

function compile(text: string, read = none, inputs: Record<string, unknown> = {}): CompiledConfig {
  const result = compileCiConfig(text, read, inputs)
  if ('errors' in result) throw new Error(result.errors.join('; '))
  return result.config
}
const errorOf = (text: string, read = none, inputs: Record<string, unknown> = {}) => {
  const result = compileCiConfig(text, read, inputs)
  return 'errors' in result ? result.errors[0] : undefined
}
function plan(
  config: CompiledConfig,
  vars: Record<string, string> = {},
  pipelineVars: Record<string, string> = {},
): PipelinePlan {
  const result = planPipeline(config, { CI_PIPELINE_SOURCE: 'api', ...vars }, pipelineVars)
  if ('error' in result) throw new Error(result.error)
  return result.plan
}

describe('compileCiConfig', () => {
  it('resolves stages, defaults, before_script, variables and artifacts into job definitions', () => {
    const config = compile(`
stages: [build, test]
variables: { GLOBAL: one }
default:
  before_script: [echo setup]
  after_script: echo bye
build:
  stage: build
  script: [echo build > out.txt]
  variables: { N: 3, V: { value: x, description: d } }
  artifacts: { paths: [out.txt], expire_in: 1 week }
test:
  script: echo test
`)
    expect(config.stages).toEqual(['.pre', 'build', 'test', '.post'])
    expect(config.variables).toEqual({ GLOBAL: 'one' })
    expect(
      compile('.t: &t { script: x, variables: { A: "yes", B: y } }\njob:\n  <<: *t\n').jobs[0]?.definition
        .variables,
    ).toEqual({ A: 'yes', B: 'y' })
    const [build, test] = config.jobs
    expect(build?.definition).toEqual({
      script: ['echo setup', 'echo build > out.txt'],
      after_script: ['echo bye'],
      when: 'on_success',
      allow_failure: false,
      needs: null,
      variables: { N: '3', V: 'x' },
      artifacts: { paths: ['out.txt'], when: 'on_success', expire_in: '1 week' },
    })
    expect(test?.stage).toBe('test')
  })

  it('merges hidden jobs through extends, the job winning, hashes merged key by key', () => {
    const config = compile(`
.base:
  script: echo base
  variables: { A: a, B: b }
.middle:
  extends: .base
  variables: { B: m }
job:
  extends: [.middle]
  variables: { C: c }
`)
    expect(config.jobs.map((j) => j.name)).toEqual(['job'])
    expect(config.jobs[0]?.definition.script).toEqual(['echo base'])
    expect(config.jobs[0]?.definition.variables).toEqual({ A: 'a', B: 'm', C: 'c' })
  })

  it('resolves !reference tags after includes and extends, nested script lists flattened', () => {
    const read = files({ 'setup.yml': '.setup:\n  script: [echo one, echo two]\n  variables: { A: a }\n' })
    const config = compile(
      'include: setup.yml\njob:\n  script:\n    - !reference [.setup, script]\n    - echo three\n  variables: !reference [.setup, variables]\n',
      read,
    )
    expect(config.jobs[0]?.definition.script).toEqual(['echo one', 'echo two', 'echo three'])
    expect(config.jobs[0]?.definition.variables).toEqual({ A: 'a' })
    expect(errorOf('job:\n  script: !reference [.nope, script]\n')).toBe(
      '!reference [".nope", "script"] could not be found',
    )
  })

  it('expands parallel: N and parallel: matrix into copies that needs waits for', () => {
    const config = compile(`
build: { stage: build, script: x, parallel: 2 }
test:
  stage: test
  script: x
  parallel:
    matrix:
      - { OS: [linux, mac], ARCH: amd64 }
report: { stage: deploy, script: x, needs: [build, test] }
`)
    expect(config.jobs.map((j) => j.name)).toEqual([
      'build 1/2',
      'build 2/2',
      'test: [linux, amd64]',
      'test: [mac, amd64]',
      'report',
    ])
    expect(config.jobs[3]?.definition.variables).toEqual({ OS: 'mac', ARCH: 'amd64' })
    expect(config.jobs[4]?.definition.needs).toEqual([
      'build 1/2',
      'build 2/2',
      'test: [linux, amd64]',
      'test: [mac, amd64]',
    ])
  })

  it('merges local includes under the file, which wins', () => {
    const read = files({
      'ci/build.yml':
        'build:\n  script: echo included\n  stage: build\nshared:\n  script: echo from include\n',
    })
    const config = compile('include: /ci/build.yml\nshared:\n  script: echo main\n', read)
    expect(config.jobs.map((j) => [j.name, j.definition.script])).toEqual([
      ['build', ['echo included']],
      ['shared', ['echo main']],
    ])
    expect(errorOf('include: [{ local: missing.yml }]\njob: { script: x }')).toBe(
      'Local file `missing.yml` does not exist!',
    )
  })

  it('merges include: project files, whose own local includes are read from that project', () => {
    const other: Record<string, string> = {
      'ci/a.yml': 'include: [{ local: /ci/nested.yml }]\na: { script: echo a }\n',
      'ci/b.yaml': 'b: { script: echo b }\n',
      'ci/nested.yml': 'nested: { script: echo from other }\n',
      'ci/empty.yml': '\n',
    }
    const opened: string[] = []
    const projects = (path: string, ref: string) => {
      opened.push(`${path}@${ref}`)
      if (path !== 'group/templates') throw new Error('unexpected project')
      return { key: `${path}@${ref}`, read: (file: string) => other[file], at: { project: path, sha: ref } }
    }
    const own = files({ 'ci/nested.yml': 'nested: { script: echo from own }\n' })
    const compileWith = (text: string) => compileCiConfig(text, own, {}, { ...NO_SOURCES, projects })
    const result = compileWith(
      'include:\n  - project: Group/Templates\n    ref: v1\n    file: [/ci/a.yml, ci/b.yaml]\nmain: { script: x }\n',
    )
    if ('errors' in result) throw new Error(result.errors.join())
    expect(result.config.jobs.map((j) => [j.name, j.definition.script])).toEqual([
      ['nested', ['echo from other']],
      ['a', ['echo a']],
      ['b', ['echo b']],
      ['main', ['x']],
    ])
    expect(opened).toEqual(['group/templates@v1', 'group/templates@v1'])
    const error = (text: string) => {
      const r = compileWith(text)
      return 'errors' in r ? r.errors[0] : undefined
    }
    expect(error('include: { project: group/templates, file: ci/missing.yml }\nj: { script: x }')).toBe(
      'Project `group/templates` file `ci/missing.yml` does not exist!',
    )
    expect(error('include: { project: group/templates, file: ci/empty.yml }\nj: { script: x }')).toBe(
      'Project `group/templates` file `ci/empty.yml` is empty!',
    )
    expect(error('include: { project: group/templates, file: ci/a.txt }\nj: { script: x }')).toBe(
      'Included file `ci/a.txt` does not have YAML extension!',
    )
    expect(error('include: { project: group/templates }\nj: { script: x }')).toBe(
      'Included file `{"project":"group/templates"}` does not have a valid location!',
    )
    // Without a server to read projects from, every project is GitLab's not found.
    expect(errorOf('include: { project: a/b, file: x.yml }\nj: { script: x }')).toBe(
      'Project `a/b` not found or access denied! Make sure any includes in the pipeline configuration are correctly defined.',
    )
  })

  it('leaves out needs on jobs of other pipelines (needs:pipeline:job, needs:project)', () => {
    const child = compile(
      'test:\n  script: x\n  needs:\n    - { pipeline: $PARENT_PIPELINE_ID, job: build }\n    - { project: a/b, job: c, ref: main, artifacts: true }\n',
    )
    expect(child.jobs[0]?.definition.needs).toEqual([])
  })

  it('reads manual, delayed and allow_failure as GitLab defaults them', () => {
    const config = compile(`
manual: { script: x, when: manual }
blocking: { script: x, when: manual, allow_failure: false }
later: { script: x, when: delayed, start_in: 30 minutes }
codes: { script: x, allow_failure: { exit_codes: [3, 4] } }
`)
    const byName = Object.fromEntries(config.jobs.map((j) => [j.name, j.definition]))
    expect(byName.manual?.allow_failure).toBe(true)
    expect(byName.blocking?.allow_failure).toBe(false)
    expect(byName.later).toMatchObject({ when: 'delayed', start_in: '30 minutes' })
    expect(byName.codes?.allow_failure).toEqual({ exit_codes: [3, 4] })
  })

  it('marks trigger jobs as bridges with their downstream', () => {
    const config = compile(`
child:
  trigger:
    include: [ci/child.yml, { local: ci/other.yml }, { project: g/p, file: ci.yml }]
    strategy: depend
other:
  trigger: group/downstream
`)
    expect(config.jobs[0]).toMatchObject({
      bridge: true,
      definition: {
        script: [],
        trigger: {
          // As written: the child's configuration includes them.
          include: ['ci/child.yml', { local: 'ci/other.yml' }, { project: 'g/p', file: 'ci.yml' }],
          strategy: 'depend',
          forward: { yaml_variables: true, pipeline_variables: false },
        },
      },
    })
    expect(config.jobs[1]?.definition.trigger?.project).toBe('group/downstream')
    expect(errorOf('child:\n  trigger:\n    include: [a.yml, b.yml, c.yml, d.yml]\n')).toBe(
      'jobs:child:trigger:include config is too long (maximum is 3)',
    )
  })

  it("answers GitLab's errors for invalid configurations", () => {
    expect(errorOf('.hidden:\n  script: x\n')).toBe('jobs config should contain at least one visible job')
    expect(errorOf('build:\n  script: x\n  foo: 1\n')).toBe('jobs:build config contains unknown keys: foo')
    expect(errorOf('build:\n  stage: build\n')).toBe(
      'jobs build config should implement the script:, run:, or trigger: keyword',
    )
    expect(errorOf('build:\n  script: x\n  stage: nope\n')).toBe(
      'build job: chosen stage nope does not exist; available stages are .pre, build, test, deploy, .post',
    )
    expect(errorOf('build:\n  script: x\n  when: sometimes\n')).toBe(
      'jobs:build when should be one of: on_success, on_failure, always, manual, delayed',
    )
    expect(errorOf('a: { script: x, stage: build, needs: [b] }\nb: { script: x, stage: test }\n')).toBe(
      'a job: need b is not defined in current or prior stages',
    )
    expect(errorOf('a: { script: x, needs: [nope] }\n')).toBe('a job: undefined need: nope')
    expect(errorOf('a: { script: x, extends: .nope }\n')).toBe('a: unknown keys in `extends` (.nope)')
    expect(errorOf('default: { variables: { A: 1 } }\na: { script: x }\n')).toBe(
      'default config contains unknown keys: variables',
    )
    expect(errorOf('a: { script: x, rules: [{ if: "$A ==" }] }\n')).toBe(
      'jobs:a:rules:rule if invalid expression syntax',
    )
    expect(errorOf('a: { script: x, when: delayed }\n')).toBe('jobs:a start in should be a duration')
    expect(errorOf('job:\n  script: x\n  foo\nbar: 1\n')).toBe(
      "(<unknown>): could not find expected ':' while scanning a simple key at line 3 column 3",
    )
    expect(errorOf('- just\n- a list\n')).toBe('Invalid configuration format')
    expect(errorOf('job: { script: x, variables: { A: yes } }')).toBe(
      'jobs:job:variables config should be a hash of key value pairs, value can be a hash',
    )
    expect(errorOf('')).toBe('Please provide content of .gitlab-ci.yml')
  })

  it('checks spec:inputs, interpolates them with their types, and words their errors', () => {
    const text = `spec:
  inputs:
    env: { options: [staging, production] }
    replicas: { type: number, default: 1 }
    debug: { type: boolean, default: false }
    tag: { default: v1, regex: ^v\\d+$ }
---
deploy:
  script: echo deploy $[[ inputs.env ]] x$[[ inputs.replicas ]]
  variables:
    DEBUG: debug=$[[ inputs.debug ]]
    TAG: $[[ inputs.tag ]]
`
    const config = compile(text, none, { env: 'staging', replicas: 3 })
    expect(config.jobs[0]?.definition.script).toEqual(['echo deploy staging x3'])
    expect(config.jobs[0]?.definition.variables).toEqual({ DEBUG: 'debug=false', TAG: 'v1' })
    expect(errorOf(text)).toBe('`env` input: required value has not been provided')
    expect(errorOf(text, none, { env: 'qa' })).toBe(
      '`env` input: `qa` cannot be used because it is not in the list of the allowed options',
    )
    expect(errorOf(text, none, { env: 'staging', replicas: 'many' })).toBe(
      '`replicas` input: provided value is not a number',
    )
    expect(errorOf(text, none, { env: 'staging', tag: 'x1' })).toBe(
      '`tag` input: provided value does not match required RegEx pattern',
    )
    expect(errorOf(text, none, { env: 'staging', nope: 1 })).toBe('unknown input arguments: nope')
    expect(errorOf('job: { script: x }', none, { a: 1 })).toBe(
      'Given inputs not defined in the `spec` section of the included configuration file',
    )
    expect(errorOf('spec:\n  inputs: {}\n---\njob:\n  script: echo $[[ inputs.nope ]]\n')).toBe(
      'unknown interpolation provided: `nope` in `inputs.nope`',
    )
  })

  it('compiles a child pipeline from its include files', () => {
    const result = compileChildConfig(
      ['ci/child.yml'],
      files({ 'ci/child.yml': 'child-job: { script: echo hi }' }),
    )
    expect('config' in result && result.config.jobs.map((j) => j.name)).toEqual(['child-job'])
  })
})

describe('planPipeline', () => {
  const config = compile(`
workflow:
  rules:
    - if: $CI_PIPELINE_SOURCE == "push" && $CI_COMMIT_BRANCH != "main"
      when: never
    - variables: { FROM_WORKFLOW: 'yes' }
stages: [build, test, deploy]
build:
  stage: build
  script: echo build
test:
  script: echo test
  needs: [build]
deploy:
  stage: deploy
  script: echo deploy
  rules:
    - if: $CI_COMMIT_BRANCH == "main"
      when: manual
    - if: $DEPLOY =~ /^y(es)?$/i
      variables: { DEPLOYING: "1" }
    - when: never
`)

  it('runs workflow rules first, then each job its first matching rule', () => {
    const onMain = plan(config, { CI_COMMIT_BRANCH: 'main' })
    expect(onMain.variables).toEqual({ FROM_WORKFLOW: 'yes' })
    expect(onMain.jobs[0]?.definition.variables).toEqual({ FROM_WORKFLOW: 'yes' })
    expect(onMain.jobs.map((j) => [j.name, j.definition.when, j.definition.allow_failure])).toEqual([
      ['build', 'on_success', false],
      ['test', 'on_success', false],
      ['deploy', 'manual', false],
    ])
    const asked = plan(config, { CI_COMMIT_BRANCH: 'feature' }, { DEPLOY: 'YES' })
    expect(asked.jobs.find((j) => j.name === 'deploy')?.definition).toMatchObject({
      when: 'on_success',
      variables: { DEPLOYING: '1' },
    })
    expect(plan(config, { CI_COMMIT_BRANCH: 'feature' }).jobs.map((j) => j.name)).toEqual(['build', 'test'])
    expect(planPipeline(config, { CI_PIPELINE_SOURCE: 'push', CI_COMMIT_BRANCH: 'feature' }, {})).toEqual({
      error: 'Pipeline filtered out by workflow rules.',
    })
  })

  it('gives each job the defaults and top-level variables its inherit: keeps', () => {
    const c = compile(`
variables: { A: a, B: b }
workflow: { rules: [{ variables: { W: w } }] }
default:
  before_script: echo setup
  after_script: echo bye
all: { script: x }
none: { script: x, inherit: { default: false, variables: false }, variables: { OWN: o } }
some:
  script: x
  inherit: { default: [after_script], variables: [B, W] }
`)
    const byName = Object.fromEntries(plan(c).jobs.map((j) => [j.name, j.definition]))
    expect(byName.all).toMatchObject({
      script: ['echo setup', 'x'],
      after_script: ['echo bye'],
      variables: { A: 'a', B: 'b', W: 'w' },
    })
    expect(byName.none).toMatchObject({ script: ['x'], after_script: [], variables: { OWN: 'o' } })
    expect(byName.some).toMatchObject({
      script: ['x'],
      after_script: ['echo bye'],
      variables: { B: 'b', W: 'w' },
    })
    // Its rules see only what the job inherits: `$A` is not set for `j`.
    const hidden = compile(
      'variables: { A: a }\nj: { script: x, inherit: { variables: [B] }, rules: [{ if: $A }] }\nk: { script: x }',
    )
    expect(plan(hidden).jobs.map((j) => j.name)).toEqual(['k'])
  })

  it("words GitLab's inherit: errors", () => {
    expect(errorOf('j: { script: x, inherit: { foo: true } }')).toBe(
      'jobs:j:inherit config contains unknown keys: foo',
    )
    expect(errorOf('j: { script: x, inherit: false }')).toBe('jobs:j:inherit config should be a hash')
    expect(errorOf('j: { script: x, inherit: { default: [image, unknown] } }')).toBe(
      'jobs:j:inherit:default config contains unknown values: unknown',
    )
    expect(errorOf('j: { script: x, inherit: { variables: "A" } }')).toBe(
      'jobs:j:inherit:variables should be a bool or array of strings',
    )
    expect(errorOf('j: { script: x, inherit: { variables: [true] } }')).toBe(
      'jobs:j:inherit:variables config should be an array of strings',
    )
  })

  it('refuses a pipeline whose rules leave no job, or a need the rules removed', () => {
    const c = compile(
      'a: { script: x, rules: [{ if: $NOPE }] }\nb: { script: x, needs: [a], rules: [{ if: $B }] }',
    )
    expect(planPipeline(c, {}, {})).toEqual({
      error:
        'Pipeline will not run for the selected trigger. The rules configuration prevented any jobs from being added to the pipeline.',
    })
    expect(planPipeline(c, { B: '1' }, {})).toEqual({
      error:
        "'b' job needs 'a' job, but 'a' does not exist in the pipeline. This might be because of the only, except, " +
        'or rules keywords. To need a job that sometimes does not exist in the pipeline, use needs:optional.',
    })
  })
})

describe('evaluate', () => {
  it('follows GitLab expression semantics', () => {
    const vars = { A: 'main', EMPTY: '', PATTERN: '/^ma/' }
    expect(evaluate('$A', vars)).toBe(true)
    expect(evaluate('$EMPTY', vars)).toBe(false)
    expect(evaluate('$UNSET == null', vars)).toBe(true)
    expect(evaluate("$A == 'main' && ($EMPTY || $A =~ /AI/i)", vars)).toBe(true)
    expect(evaluate('$A !~ $PATTERN', vars)).toBe(false)
    expect(evaluate('$A != "main" || $UNSET', vars)).toBe(false)
    expect(() => evaluate('$A = "x"', vars)).toThrow('invalid expression syntax')
  })
})
