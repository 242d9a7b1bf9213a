import { createHash } from 'node:crypto'
import type {
  Seed,
  SeedMilestone,
  SeedPipelineSchedule,
  SeedProject,
  SeedVariable,
} from '../../schema/seed.js'
import { accessLevels } from '../../schema/common.js'
import { messageError } from '../grape/gitlab-errors.js'
import { EMULATOR_SIGNATURE, refCommit } from '../git/objects.js'
import { filesCommit } from '../git/commit-files.js'
import { signatureAt } from '../git/trees.js'
import { defaultBranchProtection } from './repository/core.js'
import { makeFork } from './project-forks.js'
import { countTasks } from '../domain/tasks.js'
import type { Store } from '../store/index.js'
import { INSTANCE, type CiVariableTable } from '../store/ci-variables.js'
import type { MilestoneInsert } from '../store/milestones.js'
import type { NamespaceRow } from '../store/namespaces.js'
import { variableSlot, type ExistingRecords } from '../seed/rules.js'
import { parseDuration } from '../domain/chronic-duration.js'
import { isoNow, type Clock } from '../domain/clock.js'
import { sealTrigger } from './triggers.js'
import { nextRunAt } from '../domain/cron-schedule.js'
import { seedRefKind } from '../seed/schedule-rules.js'

const fakeSha = (text: string) => createHash('sha1').update(text).digest('hex')
const duration = (text: string | undefined) =>
  text ? Math.trunc(parseDuration(text, { keepZero: true }) ?? 0) : 0

/** `lookup` answering each key once. */
function memo<T>(lookup: (key: string) => T): (key: string) => T {
  const known = new Map<string, T>()
  return (key) => {
    if (!known.has(key)) known.set(key, lookup(key))
    return known.get(key) as T
  }
}

const SEED_KEY = 'seed_encrypted'
const TOKENS_KEY = 'seed_tokens_encrypted'

/** The tokens a start prints and `startServer` hands out: the first administrator's and trigger's a seed names. */
export interface SeedTokens {
  admin?: string
  trigger?: string
}

export const seedTokens = (seed: Seed): SeedTokens => ({
  admin: seed.users?.find((u) => u.admin && u.token)?.token,
  trigger: seed.projects?.flatMap((p) => p.triggers ?? []).find((t) => t.token)?.token,
})

/**
 * Keeps the seed a store was first given in `emulator_meta`, sealed with the store's key (a seed
 * holds tokens, and a copy of the database alone must open none), so that a reset of a `data`
 * directory returns to it even when the server is restarted with another seed or none.
 */
export function rememberSeed(store: Store, seed: Seed): void {
  store.meta.set(SEED_KEY, store.secrets.seal(JSON.stringify(seed)))
  store.meta.set(TOKENS_KEY, store.secrets.seal(JSON.stringify(seedTokens(seed))))
}

/**
 * The tokens of the seed `rememberSeed` kept, kept apart from it: a restart of a `data` directory
 * prints them without opening a seed of 100,000 issues (90 MB more at start). A store from an older
 * release reads them from its seed once, and keeps them.
 */
export function rememberedSeedTokens(store: Store): SeedTokens | undefined {
  const sealed = store.meta.get(TOKENS_KEY)
  if (sealed) return JSON.parse(store.secrets.open(sealed)) as SeedTokens
  const seed = rememberedSeed(store)
  if (!seed) return undefined
  const tokens = seedTokens(seed)
  store.meta.set(TOKENS_KEY, store.secrets.seal(JSON.stringify(tokens)))
  return tokens
}

/** The seed `rememberSeed` kept, if any. */
export function rememberedSeed(store: Store): Seed | undefined {
  const sealed = store.meta.get(SEED_KEY)
  return sealed ? (JSON.parse(store.secrets.open(sealed)) as Seed) : undefined
}

/**
 * Writes a validated seed (src/server/seed/parse.ts checked it) into the store. Users, groups and
 * projects that already exist are reused, so that `POST /-/emulator/seed` can add to a running
 * instance: members of a group, a project in a group or user namespace, and members, labels,
 * milestones and issues (iids continuing) of a project. Run inside one transaction: the seed lands
 * whole or not at all.
 */
export function applySeed(store: Store, seed: Seed, clock: Clock): void {
  const now = isoNow(clock)
  // Issues name the same few users, labels and milestones over and over: each is looked up once.
  const userId = memo((username: string) => {
    const user = store.users.byUsername(username)
    if (!user) throw messageError(400, `seed: unknown user ${username}`)
    return user.id
  })
  const w: SeedWriter = { store, now, userId, firstUser: seed.users?.[0]?.username }
  seedUsers(w, seed.users ?? [])
  seedGroups(w, seed.groups ?? [])
  seed.projects?.forEach((p, index) => seedProject(w, p, index))
  seed.projects?.forEach((p) => seedJobTokenAllowlist(w, p))
  seedAliases(w, seed.aliases ?? [])
  seedVariables(store, store.ciInstanceVariables, INSTANCE, seed.variables)
}

/** What each part of `applySeed` writes with: the store, the seed's time, users by name. */
interface SeedWriter {
  store: Store
  now: string
  userId(username: string): number
  /** The seed's first user: an issue's author where the seed names none and no user owns the namespace. */
  firstUser: string | undefined
}

/** Users that do not exist yet, each with its namespace and token. */
function seedUsers({ store, now }: SeedWriter, users: NonNullable<Seed['users']>): void {
  for (const u of users) {
    if (store.users.byUsername(u.username)) continue
    const id = store.users.insert({
      username: u.username,
      name: u.name ?? u.username,
      email: u.email ?? `${u.username}@example.com`,
      state: u.state ?? 'active',
      admin: u.admin ?? false,
      created_at: now,
    })
    store.namespaces.insert({
      kind: 'user',
      path: u.username,
      full_path: u.username,
      name: u.name ?? u.username,
      description: '',
      parent_id: null,
      owner_id: id,
      visibility: 'public',
      created_at: now,
    })
    if (u.token) store.users.addToken(id, u.token, 'seed', now)
  }
}

/** Groups that do not exist yet, and the members of each group the seed lists. */
function seedGroups({ store, now, userId }: SeedWriter, groups: NonNullable<Seed['groups']>): void {
  for (const g of groups) {
    let group = store.namespaces.byPath(g.path)
    if (!group) {
      const slash = g.path.lastIndexOf('/')
      const parent = slash > 0 ? store.namespaces.byPath(g.path.slice(0, slash)) : undefined
      const path = g.path.slice(slash + 1)
      store.namespaces.insert({
        kind: 'group',
        path,
        full_path: g.path,
        name: g.name ?? path,
        description: g.description ?? '',
        parent_id: parent?.id ?? null,
        owner_id: null,
        visibility: g.visibility ?? 'private',
        created_at: now,
      })
      group = store.namespaces.byPath(g.path)
    }
    for (const [username, role] of Object.entries(g.members ?? {}))
      store.members.set('namespace', group!.id, userId(username), accessLevels[role], now)
    for (const l of g.labels ?? [])
      store.labels.insertInGroup(group!.id, l.name, l.color ?? '#6699cc', l.description ?? null, now)
    for (const m of g.milestones ?? []) store.milestones.insert(milestoneRow(m, now, { group_id: group!.id }))
    seedVariables(store, store.ciGroupVariables, group!.id, g.variables)
  }
}

/** A seed's CI/CD variables (seed/rules.ts checked them), stored as the API stores them: sealed. */
function seedVariables(store: Store, table: CiVariableTable, ownerId: number, variables?: SeedVariable[]) {
  for (const v of variables ?? [])
    table.insert({
      owner_id: ownerId,
      key: v.key.trim(),
      value_encrypted: store.secrets.seal(v.value),
      variable_type: v.variable_type ?? 'env_var',
      protected: v.protected ? 1 : 0,
      masked: v.masked ? 1 : 0,
      hidden: 0,
      raw: v.raw ? 1 : 0,
      environment_scope: (v.environment_scope ?? '*').trim(),
      description: v.description ?? null,
    })
}

/** The row of a seed's milestone, for a project (`project_id`) or a group (`group_id`). */
function milestoneRow(
  m: SeedMilestone,
  now: string,
  owner: { project_id: number } | { group_id: number },
): MilestoneInsert {
  return {
    project_id: null,
    ...owner,
    title: m.title,
    description: m.description ?? null,
    state: m.state ?? 'active',
    start_date: m.start_date ?? null,
    due_date: m.due_date ?? null,
    created_at: now,
    updated_at: now,
  }
}

/** A project, new or existing, with what the seed adds to it. */
function seedProject(w: SeedWriter, p: SeedProject, index: number): void {
  const { store, now, userId } = w
  const slash = p.path.lastIndexOf('/')
  const ns = store.namespaces.byPath(p.path.slice(0, slash))
  if (!ns)
    throw messageError(400, `seed: projects[${index}].path: unknown namespace ${p.path.slice(0, slash)}`)
  const existing = store.projects.byPath(p.path)
  const projectId = existing?.id ?? newProject(w, p, ns)
  for (const [username, role] of Object.entries(p.members ?? {}))
    store.members.set('project', projectId, userId(username), accessLevels[role], now)
  for (const l of p.labels ?? [])
    store.labels.insert(projectId, l.name, l.color ?? '#6699cc', l.description ?? null, now)
  for (const m of p.milestones ?? []) store.milestones.insert(milestoneRow(m, now, { project_id: projectId }))
  const issueIds = seedIssues(w, p, projectId, ns)
  seedVariables(store, store.ciVariables, projectId, p.variables)
  if (!existing) projectExtras(w, p, ns, projectId, issueIds)
}

/** The project's issues, their iids continuing the project's; their ids, in the seed's order. */
function seedIssues(w: SeedWriter, p: SeedProject, projectId: number, ns: NamespaceRow): number[] {
  const { store, now, userId } = w
  // Added to a project that exists, issues continue its iids, as GitLab's next iid would.
  const firstIid = store.issues.nextIid(projectId)
  // The project's own label or milestone of the title, else one of its groups'.
  const project = { id: projectId, namespace_id: ns.id }
  const labelIds = memo((title: string) => store.labels.availableByTitle(project, title)?.id)
  const milestoneIds = memo((title: string) => store.milestones.availableByTitle(project, title)?.id ?? null)
  const issueIds: number[] = []
  p.issues?.forEach((i, n) => {
    const authorId = i.author ? userId(i.author) : (ns.owner_id ?? userId(w.firstUser ?? 'root'))
    const created = i.created_at ? new Date(i.created_at).toISOString() : now
    const tasks = countTasks(i.description ?? null)
    const closed = i.state === 'closed'
    const id = store.issues.insert({
      iid: firstIid + n,
      project_id: projectId,
      title: i.title,
      description: i.description ?? null,
      state: closed ? 'closed' : 'opened',
      author_id: authorId,
      created_at: created,
      updated_at: created,
      milestone_id: i.milestone ? milestoneIds(i.milestone) : null,
      epic_id: null,
      confidential: i.confidential ? 1 : 0,
      discussion_locked: i.discussion_locked === undefined ? null : i.discussion_locked ? 1 : 0,
      issue_type: i.issue_type ?? 'issue',
      due_date: i.due_date ?? null,
      time_estimate: duration(i.time_estimate),
      total_time_spent: duration(i.time_spent),
      weight: i.weight ?? null,
      tasks_total: tasks.total,
      tasks_done: tasks.done,
      relative_position: (firstIid + n) * 1024,
      closed_at: closed ? created : null,
      closed_by_id: closed ? authorId : null,
      user_agent: null,
      ip_address: null,
    })
    issueIds.push(id)
    // A new issue has neither yet: its lists are added, with no old list to clear first.
    const labels = (i.labels ?? []).map(labelIds).filter((x): x is number => x !== undefined)
    store.issues.addLabels(id, labels)
    const assignees = (i.assignees ?? []).map(userId)
    store.issues.addAssignees(id, assignees)
    for (const uid of new Set([authorId, ...assignees])) store.issues.setSubscription(id, uid, true)
  })
  return issueIds
}

/** A project the seed describes, with its refs (each at a real, empty git commit). */
function newProject({ store, now }: SeedWriter, p: SeedProject, ns: NamespaceRow): number {
  const slash = p.path.lastIndexOf('/')
  const path = p.path.slice(slash + 1)
  // A fork's repository and default branch are its source's (the seed's rules refuse its own).
  const source = p.forked_from === undefined ? undefined : store.projects.byPath(p.forked_from)
  if (p.forked_from !== undefined && !source)
    throw messageError(400, `seed: unknown project ${p.forked_from} (forked_from of ${p.path})`)
  const projectId = store.projects.insert({
    namespace_id: ns.id,
    path,
    full_path: p.path,
    name: p.name ?? path,
    description: p.description ?? null,
    visibility: p.visibility ?? 'private',
    archived: p.archived ? 1 : 0,
    default_branch: source ? source.default_branch : (p.default_branch ?? 'main'),
    creator_id: ns.owner_id,
    ci_config: p.ci_config === false ? 0 : 1,
    ci_jobs: JSON.stringify(p.ci_jobs ?? ['build']),
    ci_outcome: p.ci_outcome ?? 'success',
    ci_job_duration_ms: Math.round(
      (parseDuration(p.ci_job_duration ?? '2s', { keepZero: true }) ?? 2) * 1000,
    ),
    created_at: now,
    last_activity_at: now,
  })
  if (p.public_jobs === false) store.projectSettings.setPublicBuilds(projectId, false)
  if (source) {
    makeFork(store, source.id, projectId, { defaultBranch: source.default_branch ?? undefined })
    return projectId
  }
  // `refs:` is the older name of `branches:`; a name may be both a branch and a tag. Each ref
  // points at a real (empty) git commit, which the export's project.bundle carries.
  const refs = [
    ...[...new Set([p.default_branch ?? 'main', ...(p.branches ?? []), ...(p.refs ?? [])])].map(
      (name) => ['branch', name] as const,
    ),
    ...[...new Set(p.tags ?? [])].map((name) => ['tag', name] as const),
  ]
  const { name, email, date } = EMULATOR_SIGNATURE
  const withFiles = p.files
    ? filesCommit(store.gitObjects, p.files, 'Initial commit\n', signatureAt(name, email, date))
    : undefined
  for (const [kind, ref] of refs) {
    const commit = withFiles ?? refCommit(p.path, ref)
    store.gitObjects.put(commit)
    store.repository.addCommit(projectId, commit.sha)
    store.projects.addRef(projectId, kind, ref, commit.sha)
  }
  // GitLab protects a new project's default branch (`default_branch_protection_defaults`).
  store.repository.protect(defaultBranchProtection(projectId, p.default_branch ?? 'main'))
  return projectId
}

/** What only a new project's seed entry holds: merge requests (naming its issues), trigger tokens and schedules. */
function projectExtras(
  { store, now, userId }: SeedWriter,
  p: SeedProject,
  ns: NamespaceRow,
  projectId: number,
  issueIds: number[],
): void {
  p.merge_requests?.forEach((m, n) => {
    const authorId = m.author ? userId(m.author) : (ns.owner_id ?? 1)
    const mrId = store.mergeRequests.insert({
      iid: n + 1,
      project_id: projectId,
      title: m.title,
      description: m.description ?? null,
      state: m.state ?? 'opened',
      author_id: authorId,
      source_branch: m.source_branch ?? `mr-${n + 1}`,
      target_branch: m.target_branch ?? p.default_branch ?? 'main',
      created_at: now,
      updated_at: now,
      merged_at: m.state === 'merged' ? now : null,
      closed_at: m.state === 'closed' ? now : null,
    })
    for (const iid of m.mentions_issues ?? [])
      store.mergeRequests.link(mrId, issueIds[iid - 1] as number, false)
    for (const iid of m.closes_issues ?? []) store.mergeRequests.link(mrId, issueIds[iid - 1] as number, true)
  })
  for (const t of p.triggers ?? [])
    store.triggers.insert({
      project_id: projectId,
      owner_id: t.owner ? userId(t.owner) : null,
      description: t.description ?? '',
      created_at: now,
      ...sealTrigger(store.secrets, t.token ?? `glptt-${fakeSha(`${p.path}:${t.description}:${now}`)}`),
    })
  for (const schedule of p.pipeline_schedules ?? []) seedSchedule(store, projectId, p, schedule, userId, now)
}

/** A seeded pipeline schedule, as the API saves it: the full ref, `next_run_at` from the seeding time. */
function seedSchedule(
  store: Store,
  projectId: number,
  p: SeedProject,
  s: SeedPipelineSchedule,
  userId: (username: string) => number,
  now: string,
): void {
  const full = /^refs\/(heads|tags)\//.test(s.ref)
  const ref = full ? s.ref : `${seedRefKind(p, s.ref) === 'tag' ? 'refs/tags/' : 'refs/heads/'}${s.ref}`
  const zone = s.cron_timezone ?? 'UTC'
  const id = store.pipelineSchedules.insert({
    project_id: projectId,
    owner_id: userId(s.owner),
    description: s.description,
    ref,
    cron: s.cron.trim(),
    cron_timezone: zone,
    next_run_at: nextRunAt(s.cron, zone, new Date(now)).toISOString(),
    active: s.active === false ? 0 : 1,
    created_at: now,
    updated_at: now,
  })
  for (const [key, value] of Object.entries(s.variables ?? {}))
    store.pipelineSchedules.insertVariable({
      schedule_id: id,
      key,
      value_encrypted: store.secrets.seal(value),
      variable_type: 'env_var',
      raw: 0,
    })
  for (const [name, value] of Object.entries(s.inputs ?? {}))
    store.pipelineSchedules.putInput(id, name, store.secrets.seal(JSON.stringify(value)))
}

/** Aliases of projects that exist. */
/** A project's `job_token_allowlist`: each path a project (the allowlist) or else a group (the groups allowlist). */
function seedJobTokenAllowlist({ store, now }: SeedWriter, p: SeedProject): void {
  if (!p.job_token_allowlist) return
  const source = store.projects.byPath(p.path)!
  for (const entry of p.job_token_allowlist) {
    const project = store.projects.byPath(entry)
    const group = project ? undefined : store.namespaces.byPath(entry)
    const link = { source_project_id: source.id, added_by_id: null, created_at: now }
    if (project) store.jobTokenScopes.projects.insert({ ...link, target_id: project.id })
    else if (group?.kind === 'group') store.jobTokenScopes.groups.insert({ ...link, target_id: group.id })
    else throw messageError(400, `seed: unknown project or group ${entry} (job_token_allowlist of ${p.path})`)
  }
}

function seedAliases({ store }: SeedWriter, aliases: NonNullable<Seed['aliases']>): void {
  for (const a of aliases) {
    const project = store.projects.byPath(a.project)
    if (!project) throw messageError(400, `seed: alias ${a.name}: unknown project ${a.project}`)
    store.aliases.insert(project.id, a.name)
  }
}

/** What the store holds, for checking a seed that adds to it (src/server/seed/rules.ts). */
export function existingRecords(store: Store): ExistingRecords {
  return {
    user: (username) => store.users.byUsername(username) !== undefined,
    variables: (owner, path = '') => {
      const [table, id] =
        owner === 'instance'
          ? [store.ciInstanceVariables, INSTANCE]
          : owner === 'group'
            ? [store.ciGroupVariables, store.namespaces.byPath(path)?.id]
            : [store.ciVariables, store.projects.byPath(path)?.id]
      if (id === undefined) return new Set()
      return new Set(table.all(id).map((v) => variableSlot(v.key, v.environment_scope)))
    },
    namespace: (path) => store.namespaces.byPath(path)?.kind,
    groupItems: (path) => {
      const group = store.namespaces.byPath(path)
      if (group?.kind !== 'group') return undefined
      return {
        labels: new Set(
          store.labels
            .ofGroups(group.id)
            .filter((l) => l.group_id === group.id)
            .map((l) => l.title),
        ),
        milestones: new Set(store.milestones.ofGroup(group.id).map((m) => m.title)),
      }
    },
    project: (path) => {
      const project = store.projects.byPath(path)
      if (!project) return undefined
      let titles: Map<string, number> | undefined
      return {
        visibility: project.visibility,
        labels: new Set(store.labels.ofProject(project.id).map((l) => l.title)),
        milestones: new Set(store.milestones.ofProject(project.id).map((m) => m.title)),
        issueIid: (title) => (titles ??= store.issues.iidsByTitle(project.id)).get(title),
      }
    },
  }
}
