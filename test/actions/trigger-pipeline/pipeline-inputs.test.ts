import { byteSize } from '../../../src/actions/inputs.js'
import { readInputs } from '../../../src/actions/trigger-pipeline/inputs.js'
import { inputsRefusal, pipelineInputs } from '../../../src/actions/trigger-pipeline/pipeline-inputs.js'

describe('pipelineInputs', () => {
  it('reads YAML and JSON maps of typed values', async () => {
    expect(
      await pipelineInputs('environment: production\nreplicas: 3\ndebug: false\nregions: [us, eu]', 'inputs'),
    ).toEqual({
      environment: 'production',
      replicas: 3,
      debug: false,
      regions: ['us', 'eu'],
    })
    expect(await pipelineInputs('{"job-stage": "test", "n": 1.5}', 'inputs')).toEqual({
      'job-stage': 'test',
      n: 1.5,
    })
  })

  it.each([
    ['a list', '- a\n- b', "Input 'inputs' must be a YAML or JSON map"],
    ['a scalar', 'just text', "Input 'inputs' must be a YAML or JSON map"],
    ['broken YAML', 'a: [1, 2', "Input 'inputs' must be a YAML or JSON map"],
    ['a map value', 'a: { b: 1 }', "the value of 'a' must be a string, number, boolean or array"],
    ['a null value', 'a:', "the value of 'a' must be a string, number, boolean or array"],
    ['a bad name', '"a b": 1', "'a b' is not an input name"],
  ])('refuses %s, naming the input', async (_what, text, message) => {
    await expect(pipelineInputs(text, 'inputs')).rejects.toThrow(message)
  })

  it('never echoes a value in its errors', async () => {
    await expect(pipelineInputs('token: { secret: s3cr3t-value }', 'inputs')).rejects.toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('s3cr3t') }),
    )
  })
})

describe('inputsRefusal', () => {
  it('lets 17.11 and later through and refuses older releases with a clear message', () => {
    expect(inputsRefusal('17.11.0')).toBeUndefined()
    expect(inputsRefusal('18.6.0-ee')).toBeUndefined()
    expect(inputsRefusal('17.10.3')).toMatch(
      /^Nothing was triggered: input 'inputs' needs GitLab 17\.11 or later .* this GitLab runs 17\.10\.3/,
    )
    expect(inputsRefusal('16.11.0')).toContain("pass the values as 'variables'")
  })
})

describe('byteSize', () => {
  it('reads sizes with units and bare bytes, refusing the rest', () => {
    expect(byteSize('1GiB', 'x')).toBe(1024 ** 3)
    expect(byteSize('500MiB', 'x')).toBe(500 * 1024 ** 2)
    expect(byteSize('100MB', 'x')).toBe(100e6)
    expect(byteSize('2048', 'x')).toBe(2048)
    expect(byteSize('1.5kib', 'x')).toBe(1536)
    for (const bad of ['0', '-1', 'lots', '1TB', '0.1b'])
      expect(() => byteSize(bad, 'artifacts-max-size')).toThrow("Input 'artifacts-max-size' must be a size")
  })
})

describe('readInputs', () => {
  const source = (inputs: Record<string, string>) => ({
    getInput: (name: string) => inputs[name] ?? '',
    getEnv: () => undefined,
    setSecret: () => undefined,
  })
  const base = { project: 'acme/app', token: 'glptt-x', 'access-token': 'glpat-y' }

  it('reads the new inputs with their defaults', async () => {
    const s = await readInputs(source(base))
    expect(s).toMatchObject({
      followDownstream: true,
      logLines: 40,
      artifactsPath: 'gitlab-artifacts',
      artifactsMaxSize: 1024 ** 3,
      downloadArtifacts: undefined,
      inputs: undefined,
    })
    const more = await readInputs(
      source({
        ...base,
        'download-artifacts': 'build\n# a comment\n\ntest:unit:{a,b}/*.xml',
        'log-lines': '0',
      }),
    )
    expect(more).toMatchObject({ downloadArtifacts: ['build', 'test:unit:{a,b}/*.xml'], logLines: 0 })
  })

  it("refuses 'download-artifacts' without waiting, and a 'log-lines' out of range", async () => {
    await expect(
      readInputs(source({ ...base, wait: 'false', 'download-artifacts': 'build' })),
    ).rejects.toThrow("Input 'download-artifacts' needs 'wait: true'")
    await expect(readInputs(source({ ...base, 'log-lines': '1001' }))).rejects.toThrow(
      "Input 'log-lines' must be a whole number from 0 to 1000, got '1001'",
    )
  })
})
