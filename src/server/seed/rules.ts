import type {
  Seed,
  SeedIssue,
  SeedLabel,
  SeedMergeRequest,
  SeedMilestone,
  SeedProject,
  SeedVariable,
} from '../../schema/seed.js'
import {
  GROUP_VARIABLE_LIMITS,
  INSTANCE_VARIABLE_LIMITS,
  PROJECT_VARIABLE_LIMITS,
  variableErrors,
  type VariableLimits,
} from '../domain/ci-variable-rules.js'
import { parseDuration } from '../domain/chronic-duration.js'
import { checkForkedFrom } from './fork-rules.js'
import { checkPipelineSchedules } from './schedule-rules.js'
import { formatPath, type SeedPath, type SeedProblem } from './problem.js'

/** GitLab's cap on an issue's total time spent (`Timelog::MAX_TOTAL_TIME_SPENT`, app/models/timelog.rb): 4 years of 365.25 days. */
const MAX_TIME_SPENT = 126_230_400

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/

/** Largest hour, minute, second, zone hour and zone minute. */
const TIME_LIMITS = [23, 59, 59, 23, 59]

/** `YYYY-MM-DD` naming a day that exists. */
export function isDate(text: string): boolean {
  const m = DATE.exec(text)
  if (!m) return false
  const year = Number(m[1])
  const month = Number(m[2])
  const day = Number(m[3])
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

/** ISO 8601 date and time with a zone (`Z` or `+01:00`), seconds and fraction optional. */
export function isTimestamp(text: string): boolean {
  const m = TIMESTAMP.exec(text)
  if (!m || !isDate(m[1] ?? '')) return false
  // A plain loop: a seed checks this once per issue, before the code is optimised (start-up time).
  for (let i = 0; i < TIME_LIMITS.length; i++) if (Number(m[i + 2] ?? 0) > (TIME_LIMITS[i] ?? 0)) return false
  return !Number.isNaN(Date.parse(text))
}

/** Usernames and namespace/project paths compare case-insensitively, as the store does (COLLATE NOCASE). */
const fold = (name: string) => name.toLowerCase()

/**
 * What a running server already holds, for a seed that adds to it (`POST /-/emulator/seed`): its
 * users, groups and users' namespaces, and projects with their label names and milestone titles.
 */
export interface ExistingRecords {
  user(username: string): boolean
  namespace(path: string): 'group' | 'user' | undefined
  project(path: string): ExistingProject | undefined
  /** A group's label names and milestone titles; undefined when it does not exist. */
  groupItems(path: string): Titles | undefined
  /**
   * The CI/CD variables an owner already has, each as `variableSlot(key, environment_scope)`
   * (the instance's are all in scope `*`); empty for a group or project that does not exist.
   */
  variables(owner: 'instance' | 'group' | 'project', path?: string): Set<string>
}

/** A variable's place: its key is unique per environment scope of its owner. */
export const variableSlot = (key: string, scope: string) => `${key}\0${scope}`

/** Label names and milestone titles of a project or group. */
export interface Titles {
  labels: Set<string>
  milestones: Set<string>
}

/** A project that exists: its label names, milestone titles, and the iid of an issue by title. */
export interface ExistingProject extends Titles {
  issueIid(title: string): number | undefined
  visibility: string
}

const NOTHING: ExistingRecords = {
  user: () => false,
  namespace: () => undefined,
  project: () => undefined,
  groupItems: () => undefined,
  variables: () => new Set(),
}

/** What a seed entry may add to a project that exists; its other keys describe a new project. */
const ADDABLE_TO_EXISTING = new Set([
  'path',
  'members',
  'labels',
  'milestones',
  'issues',
  'variables',
  'job_token_allowlist',
])

/**
 * Every rule the schema cannot express, in no particular order (the caller sorts by position):
 * users named anywhere are listed; usernames, group paths, project paths, label names and milestone
 * titles (per project), alias names and tokens are unique; a nested group follows its parent; a
 * project lives in a listed group or user; issue labels and milestones come from the project or
 * the groups above it; group label names and milestone titles are unique per group;
 * merge request issue iids exist; dates are real; durations parse (lib/gitlab/time_tracking_formatter.rb) and are not negative.
 * With `existing`, users, groups, users' namespaces and projects that exist count as listed: a
 * project may go in an existing namespace, an existing project may get members, labels,
 * milestones, issues and variables (and nothing else), a group that exists gets the members,
 * labels, milestones and variables listed, and the variables an owner has already count against
 * its `variables:` (their keys in each scope, the plan limit).
 */
export function ruleProblems(seed: Seed, existing: ExistingRecords = NOTHING): SeedProblem[] {
  const problems: SeedProblem[] = []
  const report: Report = (path, message, conflict) =>
    problems.push(conflict ? { path, message, conflict } : { path, message })

  const users = new Set<string>()
  const userTokens = new Map<string, number>()
  seed.users?.forEach((user, i) => {
    if (users.has(fold(user.username)))
      report(['users', i, 'username'], `duplicate username ${user.username}`)
    users.add(fold(user.username))
    if (user.token === undefined) return
    const first = userTokens.get(user.token)
    if (first !== undefined) report(['users', i, 'token'], `duplicate token (same as users[${first}].token)`)
    else userTokens.set(user.token, i)
  })
  const checkUser: CheckUser = (path, username) => {
    if (username !== undefined && !users.has(fold(username)) && !existing.user(username))
      report(path(), `unknown user ${username}`)
  }
  const checkMembers = (path: SeedPath, members: Record<string, unknown> | undefined) => {
    for (const username of Object.keys(members ?? {}))
      checkUser(() => [...path, 'members', username], username)
  }

  const allGroups = new Set((seed.groups ?? []).map((g) => fold(g.path)))
  const groupTitles = new Map<string, Titles>()
  const groups = new Set<string>()
  seed.groups?.forEach((group, i) => {
    const path: SeedPath = ['groups', i, 'path']
    const key = fold(group.path)
    const slash = group.path.lastIndexOf('/')
    const parent = group.path.slice(0, Math.max(slash, 0))
    const there = existing.namespace(group.path)
    if (groups.has(key)) report(path, `duplicate path ${group.path}`)
    else if (users.has(key) || there === 'user')
      report(path, `duplicate path ${group.path} (a user's namespace)`)
    else if (slash > 0 && !there && !groups.has(fold(parent)) && existing.namespace(parent) !== 'group')
      report(
        path,
        allGroups.has(fold(parent))
          ? `parent group ${parent} must be listed before ${group.path}`
          : `unknown parent group ${parent}`,
      )
    groups.add(key)
    checkMembers(['groups', i], group.members)
    if (group.variables) {
      const held = there === 'group' ? existing.variables('group', group.path) : undefined
      checkVariables(report, ['groups', i], group.variables, GROUP_VARIABLE_LIMITS, held)
    }
    const titles = ownTitles(report, ['groups', i], group, existing.groupItems(group.path))
    const known = groupTitles.get(key)
    groupTitles.set(key, known ? merged(known, titles) : titles)
  })
  /** The labels and milestones a project in `namespace` sees from the groups above it. */
  const inherited = (namespace: string): Titles => {
    const all: Titles = { labels: new Set(), milestones: new Set() }
    for (let path = namespace; path; path = path.slice(0, Math.max(path.lastIndexOf('/'), 0))) {
      const titles = groupTitles.get(fold(path)) ?? existing.groupItems(path)
      if (titles) Object.assign(all, merged(all, titles))
    }
    return all
  }

  const projects = new Set<string>()
  /** The visibility of each project listed so far, by folded path. */
  const visibilities = new Map<string, string>()
  const triggerTokens = new Map<string, SeedPath>()
  seed.projects?.forEach((project, i) => {
    const at: SeedPath = ['projects', i]
    const key = fold(project.path)
    const namespace = project.path.slice(0, project.path.lastIndexOf('/'))
    const there = existing.project(project.path)
    if (projects.has(key)) report([...at, 'path'], `duplicate path ${project.path}`)
    else if (groups.has(key) || existing.namespace(project.path))
      report([...at, 'path'], `duplicate path ${project.path} (a group)`)
    else if (!groups.has(fold(namespace)) && !users.has(fold(namespace)) && !existing.namespace(namespace))
      report([...at, 'path'], `unknown namespace ${namespace} (not a listed group or user)`)
    if (project.forked_from !== undefined)
      checkForkedFrom(
        report,
        at,
        project,
        (path) => visibilities.get(fold(path)) ?? existing.project(path)?.visibility,
      )
    projects.add(key)
    visibilities.set(key, project.visibility ?? 'private')
    if (there)
      for (const name of Object.keys(project))
        if (!ADDABLE_TO_EXISTING.has(name))
          report(
            [...at, name],
            `project ${project.path} exists: only members, labels, milestones, issues, variables and job_token_allowlist can be added`,
          )
    checkMembers(at, project.members)
    checkDuration(report, () => [...at, 'ci_job_duration'], project.ci_job_duration)
    duplicates(report, project.ci_jobs, () => [...at, 'ci_jobs'], 'job')
    checkProject(report, at, project, checkUser, inherited(namespace), there)
    if (project.variables) {
      const held = there ? existing.variables('project', project.path) : undefined
      checkVariables(report, at, project.variables, PROJECT_VARIABLE_LIMITS, held)
    }
    checkPipelineSchedules(report, at, project, checkUser)
    project.triggers?.forEach((trigger, t) => {
      const path: SeedPath = [...at, 'triggers', t]
      checkUser(() => [...path, 'owner'], trigger.owner)
      if (trigger.token === undefined) return
      const first = triggerTokens.get(trigger.token)
      if (first) report([...path, 'token'], `duplicate trigger token (same as ${formatPath(first)})`)
      else triggerTokens.set(trigger.token, [...path, 'token'])
    })
  })

  // Allowlists name projects and groups listed anywhere in the seed: checked once all are known.
  seed.projects?.forEach((project, i) =>
    project.job_token_allowlist?.forEach((entry, e) => {
      const key = fold(entry)
      const known =
        projects.has(key) ||
        groups.has(key) ||
        existing.project(entry) !== undefined ||
        existing.namespace(entry) === 'group'
      if (key === fold(project.path))
        report(['projects', i, 'job_token_allowlist', e], 'a project is always in its own job token scope')
      else if (!known) report(['projects', i, 'job_token_allowlist', e], `unknown project or group ${entry}`)
    }),
  )

  if (seed.variables)
    checkVariables(report, [], seed.variables, INSTANCE_VARIABLE_LIMITS, existing.variables('instance'))

  const aliases = new Set<string>()
  seed.aliases?.forEach((alias, i) => {
    if (aliases.has(alias.name)) report(['aliases', i, 'name'], `duplicate alias ${alias.name}`)
    aliases.add(alias.name)
    if (!projects.has(fold(alias.project)) && !existing.project(alias.project))
      report(['aliases', i, 'project'], `unknown project ${alias.project}`)
  })
  return problems
}

type Report = (path: SeedPath, message: string, conflict?: true) => void
/*
 * The checks below take the key path as a function, called only for a problem: a seed's 1,000
 * issues are checked at start-up, before the code is optimised, and copying a path for each key
 * of each issue took a third of the time.
 */
type LazyPath = () => SeedPath
type CheckUser = (path: LazyPath, username: string | undefined) => void

/**
 * A seed's `variables:` with the API's checks (src/server/domain/ci-variable-rules.ts), key by key;
 * `held`, the slots (`variableSlot`) of the variables the owner has already.
 */
function checkVariables(
  report: Report,
  at: SeedPath,
  variables: SeedVariable[] | undefined,
  limits: VariableLimits,
  held: Set<string> = new Set(),
) {
  const seen = new Set<string>()
  variables?.forEach((v, i) => {
    const fields = {
      key: v.key.trim(),
      value: v.value,
      masked: v.masked === true,
      raw: v.raw === true,
      environment_scope: (v.environment_scope ?? '*').trim(),
      description: v.description ?? null,
    }
    const scoped = variableSlot(fields.key, fields.environment_scope)
    const taken = () => seen.has(scoped) || held.has(scoped)
    const errors = variableErrors(fields, taken, limits, () => held.size + i)
    seen.add(scoped)
    for (const [field, messages] of Object.entries(errors))
      for (const message of messages) report([...at, 'variables', i, field], message)
  })
}

/** Reports every repeat in a list of names: `labels[2]: duplicate label bug`. */
function duplicates(report: Report, names: string[] | undefined, path: LazyPath, what: string) {
  if (names === undefined || names.length < 2) return
  const seen = new Set<string>()
  names.forEach((name, i) => {
    if (seen.has(name)) report([...path(), i], `duplicate ${what} ${name}`)
    seen.add(name)
  })
}

function checkDate(report: Report, path: LazyPath, text: string | undefined) {
  if (text !== undefined && !isDate(text)) report(path(), `invalid date ${text} (expected YYYY-MM-DD)`)
}

function checkDuration(report: Report, path: LazyPath, text: string | undefined, max = Infinity) {
  if (text === undefined) return
  const seconds = parseDuration(text, { keepZero: true })
  if (seconds === null) report(path(), `invalid duration ${JSON.stringify(text)} (expected e.g. 3h 30m)`)
  else if (seconds < 0) report(path(), `duration ${text} must not be negative`)
  else if (seconds > max) report(path(), `duration ${text} exceeds 4 years`)
}

const merged = (a: Titles, b: Titles): Titles => ({
  labels: new Set([...a.labels, ...b.labels]),
  milestones: new Set([...a.milestones, ...b.milestones]),
})

/** The labels and milestones a project or group (at `at`) lists, checked, with those it had. */
function ownTitles(
  report: Report,
  at: SeedPath,
  owner: { labels?: SeedLabel[]; milestones?: SeedMilestone[] },
  existing?: Titles,
): Titles {
  const labels = new Set<string>(existing?.labels)
  owner.labels?.forEach((label, l) => {
    if (labels.has(label.name)) report([...at, 'labels', l, 'name'], `duplicate label ${label.name}`)
    labels.add(label.name)
  })
  const milestones = new Set<string>(existing?.milestones)
  owner.milestones?.forEach((milestone, m) => {
    const path: SeedPath = [...at, 'milestones', m]
    if (milestones.has(milestone.title)) report([...path, 'title'], `duplicate milestone ${milestone.title}`)
    milestones.add(milestone.title)
    checkDate(report, () => [...path, 'start_date'], milestone.start_date)
    checkDate(report, () => [...path, 'due_date'], milestone.due_date)
    const { start_date: start, due_date: due } = milestone
    if (start && due && isDate(start) && isDate(due) && due < start)
      report([...path, 'due_date'], `due date ${due} is before start date ${start}`)
  })
  return { labels, milestones }
}

/** Labels, milestones, issues and merge requests of one project; `inherited`: its groups' labels and milestones. */
function checkProject(
  report: Report,
  at: SeedPath,
  project: SeedProject,
  checkUser: CheckUser,
  inherited: Titles,
  existing?: ExistingProject,
) {
  const { labels, milestones } = merged(ownTitles(report, at, project, existing), inherited)
  const context = { report, at, labels, milestones, checkUser }
  project.issues?.forEach((issue, n) => {
    checkIssue(context, n, issue)
    // Posting a seed twice would add its issues twice: an issue the project has already is refused.
    const iid = existing?.issueIid(issue.title)
    if (iid !== undefined)
      report(
        [...at, 'issues', n, 'title'],
        `${project.path} already has this issue (#${iid} ${JSON.stringify(issue.title)}); a seed adds, it does not update (POST /-/emulator/reset first to start over)`,
        true,
      )
  })
  const issueCount = project.issues?.length ?? 0
  project.merge_requests?.forEach((mr, n) => checkMergeRequest(report, at, n, mr, issueCount, checkUser))
}

interface ProjectContext {
  report: Report
  at: SeedPath
  labels: Set<string>
  milestones: Set<string>
  checkUser: CheckUser
}

function checkIssue(
  { report, at, labels, milestones, checkUser }: ProjectContext,
  n: number,
  issue: SeedIssue,
) {
  const path = (...rest: SeedPath): SeedPath => [...at, 'issues', n, ...rest]
  checkUser(() => path('author'), issue.author)
  issue.assignees?.forEach((username, a) => checkUser(() => path('assignees', a), username))
  duplicates(report, issue.assignees, () => path('assignees'), 'assignee')
  issue.labels?.forEach((name, l) => {
    if (!labels.has(name))
      report(path('labels', l), `unknown label ${name} (not in ${formatPath(at)}.labels)`)
  })
  duplicates(report, issue.labels, () => path('labels'), 'label')
  if (issue.milestone !== undefined && !milestones.has(issue.milestone))
    report(path('milestone'), `unknown milestone ${issue.milestone} (not in ${formatPath(at)}.milestones)`)
  checkDate(report, () => path('due_date'), issue.due_date)
  if (issue.created_at !== undefined && !isTimestamp(issue.created_at))
    report(
      path('created_at'),
      `invalid timestamp ${issue.created_at} (expected ISO 8601 like 2026-11-02T10:00:00.000Z)`,
    )
  checkDuration(report, () => path('time_estimate'), issue.time_estimate)
  checkDuration(report, () => path('time_spent'), issue.time_spent, MAX_TIME_SPENT)
}

function checkMergeRequest(
  report: Report,
  at: SeedPath,
  n: number,
  mr: SeedMergeRequest,
  issueCount: number,
  checkUser: CheckUser,
) {
  const path: SeedPath = [...at, 'merge_requests', n]
  checkUser(() => [...path, 'author'], mr.author)
  for (const key of ['closes_issues', 'mentions_issues'] as const)
    mr[key]?.forEach((iid, k) => {
      if (iid > issueCount)
        report([...path, key, k], `unknown issue iid ${iid} (${formatPath(at)} has ${issueCount} issues)`)
    })
}
