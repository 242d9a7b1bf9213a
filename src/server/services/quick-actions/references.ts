import type { IssueRow } from '../../store/issues.js'
import type { LabelRow } from '../../store/labels.js'
import type { MilestoneRow } from '../../store/milestones.js'
import type { ProjectRow } from '../../store/projects.js'
import type { UserRow } from '../../store/users.js'
import type { QuickActionContext } from './definition.js'

/*
 * The references command arguments name (`QuickActions::InterpretService#find_labels`,
 * `#extract_users`, `#extract_references` with GitLab's reference patterns), within the project.
 */

/** `~bug`, `~"two words"`, `~12` (a label id): GitLab's label reference pattern. */
const LABEL_REF = /~(?:(\d+)\b|"([^"]+)"|([A-Za-z0-9_\-?.&]+))/g

/**
 * `find_labels`: labels referenced with `~`, and, when the argument has no `~`, labels named
 * by its words (`"A B" C` names `A B` and `C`); without an argument, every label of the project and its groups.
 */
export function findLabels(ctx: QuickActionContext, param?: string): LabelRow[] {
  const all = ctx.deps.ctx.store.labels.available(ctx.project)
  if (param === undefined) return all
  const found: LabelRow[] = []
  const add = (label: LabelRow | undefined) => {
    if (label && !found.includes(label)) found.push(label)
  }
  for (const m of param.matchAll(LABEL_REF))
    add(m[1] ? all.find((l) => l.id === Number(m[1])) : all.find((l) => l.title === (m[2] ?? m[3])))
  if (!param.includes('~'))
    for (const m of param.matchAll(/"([^"]+)"|([^ ]+)/g)) add(all.find((l) => l.title === (m[1] ?? m[2])))
  return found
}

/** `Label#to_reference(format: :name)`: `~"bug"` (the id when the name holds a double quote). */
export const labelReference = (label: LabelRow) =>
  label.title.includes('"') ? `~${label.id}` : `~"${label.title}"`

/**
 * `UsersExtractor`: `@name`, `name` or `me`, separated by spaces, commas or `and`. Chosen: names
 * that match no user are left out (GitLab fails the command's parse with "Failed to find users").
 */
export function findUsers(ctx: QuickActionContext, param?: string): UserRow[] {
  const users: UserRow[] = []
  for (const word of (param ?? '').split(/[\s,]+/)) {
    if (word === '' || word === 'and') continue
    const user = word === 'me' ? ctx.actor.user : ctx.deps.ctx.store.users.byUsername(word.replace(/^@/, ''))
    if (user && !users.some((u) => u.id === user.id)) users.push(user)
  }
  return users
}

/** `%"v1.0"`, `%v1.0`, `%3` (an iid), else the argument as a title: a milestone of the project or its groups. */
export function findMilestone(ctx: QuickActionContext, param: string): MilestoneRow | undefined {
  const milestones = ctx.deps.ctx.store.milestones.available(ctx.project)
  const m = /^\s*%(?:(\d+)\b|"([^"]+)"|([^"\s<]+))/.exec(param)
  if (m) {
    const byRef = m[1]
      ? milestones.find((x) => x.iid === Number(m[1]))
      : milestones.find((x) => x.title === (m[2] ?? m[3]))
    if (byRef) return byRef
  }
  return milestones.find((x) => x.title === param.trim())
}

/** `Milestone#to_reference`: `%"v1.0"` (the iid when the title holds a double quote). */
export const milestoneReference = (m: MilestoneRow) => (m.title.includes('"') ? `%${m.iid}` : `%"${m.title}"`)

/**
 * An issue the caller can read: `#3` in this project, `group/project#3`, or its web URL
 * (`extract_references(param, :issue).first`).
 */
export function findIssue(
  ctx: QuickActionContext,
  param: string,
): { issue: IssueRow; project: ProjectRow } | undefined {
  const { store, access, instance } = ctx.deps.ctx
  const base = instance.baseUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const m =
    new RegExp(`${base}/(.+?)/-/issues/(\\d+)`).exec(param) ??
    /(?:^|\s)([\w.-]+(?:\/[\w.-]+)+)?#(\d+)\b/.exec(param)
  if (!m) return undefined
  const project = m[1] ? store.projects.byPath(m[1]) : ctx.project
  if (!project || !access.canReadProject(ctx.actor, project)) return undefined
  const issue = store.issues.byIid(project.id, Number(m[2]))
  if (!issue || !ctx.deps.issues.canReadIssue(ctx.actor, project, issue)) return undefined
  return { issue, project }
}
