import { jobFolder, resolveSpec } from '../../../src/actions/trigger-pipeline/artifacts.js'
import type { Job } from '../../../src/schema/pipeline.js'

const job = (id: number, name: string) => ({ id, name }) as Job
const parent = { projectId: 1, jobs: [job(1, 'build'), job(2, 'test:unit'), job(5, 'build')] }
const child = { projectId: 2, jobs: [job(9, 'package'), job(10, 'build')] }

describe('resolveSpec', () => {
  it('finds a job by its whole name, newest first, the triggered pipeline before its downstream ones', () => {
    expect(resolveSpec('build', [parent, child])).toEqual({
      job: job(5, 'build'),
      projectId: 1,
      glob: undefined,
    })
    expect(resolveSpec('package', [parent, child])).toEqual({
      job: job(9, 'package'),
      projectId: 2,
      glob: undefined,
    })
  })

  it("reads 'job:glob', with names that hold a colon themselves", () => {
    expect(resolveSpec('build:dist/**', [parent])).toMatchObject({ job: { id: 5 }, glob: 'dist/**' })
    expect(resolveSpec('test:unit', [parent])).toMatchObject({ job: { id: 2 }, glob: undefined })
    expect(resolveSpec('test:unit:reports/*.xml', [parent])).toMatchObject({
      job: { id: 2 },
      glob: 'reports/*.xml',
    })
    expect(resolveSpec('deploy', [parent, child])).toBeUndefined()
  })
})

describe('jobFolder', () => {
  it('makes a job name a safe folder name', () => {
    expect(jobFolder('build')).toBe('build')
    expect(jobFolder('test:unit 1/2')).toBe('test_unit_1_2')
    expect(jobFolder('../..')).toBe('.._..')
    expect(jobFolder('..')).toBe('job_2')
  })
})
