import { Value } from '@sinclair/typebox/value'
import { parse } from 'yaml'
import { literals, Role, Visibility } from '../../src/schema/common.js'
import { IssueState, IssueType } from '../../src/schema/issue.js'
import { MilestoneState } from '../../src/schema/milestone.js'
import {
  Seed,
  SeedGroup,
  SeedIssue,
  SeedLabel,
  SeedMergeRequest,
  SeedMilestone,
  SeedProject,
  SeedTrigger,
  SeedUser,
  SeedAlias,
} from '../../src/schema/seed.js'
import { designSeed } from '../server/seed/fixtures.js'

describe('Seed schema (docs/seed.md)', () => {
  it('accepts the full example seed', () => {
    expect(Value.Errors(Seed, parse(designSeed)).First()).toBeUndefined()
  })

  it('accepts the smallest seeds: nothing, and only the required keys', () => {
    expect(Value.Check(Seed, {})).toBe(true)
    const minimal: Seed = {
      users: [{ username: 'root' }],
      groups: [{ path: 'acme' }],
      projects: [{ path: 'acme/widgets', issues: [{ title: 'x' }], merge_requests: [{ title: 'y' }] }],
      aliases: [{ name: 'w', project: 'acme/widgets' }],
    }
    expect(Value.Check(Seed, minimal)).toBe(true)
  })

  it.each([
    ['Seed', Seed],
    ['SeedUser', SeedUser],
    ['SeedGroup', SeedGroup],
    ['SeedProject', SeedProject],
    ['SeedLabel', SeedLabel],
    ['SeedMilestone', SeedMilestone],
    ['SeedIssue', SeedIssue],
    ['SeedMergeRequest', SeedMergeRequest],
    ['SeedTrigger', SeedTrigger],
    ['SeedAlias', SeedAlias],
  ])('%s is closed', (_name, schema) => {
    expect(schema.additionalProperties).toBe(false)
  })

  it('requires only username, path, title and an alias name and project', () => {
    expect(SeedUser.required).toEqual(['username'])
    expect(SeedGroup.required).toEqual(['path'])
    expect(SeedProject.required).toEqual(['path'])
    expect(SeedIssue.required).toEqual(['title'])
    expect(SeedMilestone.required).toEqual(['title'])
    expect(SeedMergeRequest.required).toEqual(['title'])
    expect(SeedLabel.required).toEqual(['name'])
    expect(SeedAlias.required).toEqual(['name', 'project'])
    expect(SeedTrigger.required).toBeUndefined()
    expect(Seed.required).toBeUndefined()
  })

  it('reuses the record enums rather than copying them', () => {
    expect(literals(SeedIssue.properties.state)).toEqual(literals(IssueState))
    expect(literals(SeedIssue.properties.issue_type)).toEqual(literals(IssueType))
    expect(literals(SeedMilestone.properties.state)).toEqual(literals(MilestoneState))
    expect(literals(SeedProject.properties.visibility)).toEqual(literals(Visibility))
    expect(literals(SeedGroup.properties.visibility)).toEqual(literals(Visibility))
    expect(SeedProject.properties.members.patternProperties).toEqual(
      expect.objectContaining({ '^(.*)$': expect.objectContaining({ anyOf: Role.anyOf }) }),
    )
  })

  it("documents the loader's defaults", () => {
    expect(SeedProject.properties.visibility.default).toBe('private')
    expect(SeedIssue.properties.state.default).toBe('opened')
    expect(SeedUser.properties.admin.default).toBe(false)
    expect(SeedProject.properties.ci_jobs.default).toEqual(['build'])
    expect(SeedProject.properties.ci_job_duration.default).toBe('2s')
    // annotating a default does not touch the shared enum
    expect(Visibility).not.toHaveProperty('default')
  })

  it.each([
    ['an unknown key', { users: [{ username: 'a', frobnicate: 1 }] }],
    ['a missing title', { projects: [{ path: 'a/b', issues: [{}] }] }],
    [
      'a state GitLab does not have',
      { projects: [{ path: 'a/b', issues: [{ title: 'x', state: 'open' }] }] },
    ],
    ['a ci_outcome GitLab does not have', { projects: [{ path: 'a/b', ci_outcome: 'passed' }] }],
    ['a role GitLab does not have', { groups: [{ path: 'a', members: { bob: 'admin' } }] }],
    ['a project path without a namespace', { projects: [{ path: 'widgets' }] }],
    [
      'a label colour that is not hex',
      { projects: [{ path: 'a/b', labels: [{ name: 'x', color: 'red' }] }] },
    ],
    ['an iid below 1', { projects: [{ path: 'a/b', merge_requests: [{ title: 'x', closes_issues: [0] }] }] }],
    ['a negative weight', { projects: [{ path: 'a/b', issues: [{ title: 'x', weight: -1 }] }] }],
  ])('refuses %s', (_what, seed) => {
    expect(Value.Check(Seed, seed)).toBe(false)
  })
})
