import type { IssueType } from '../../../schema/index.js'
import { validationError } from '../../grape/gitlab-errors.js'
import { humanSize } from '../../domain/human-size.js'
import type { ProjectRow } from '../../store/projects.js'
import { Actor, Level } from '../access.js'
import type { ServiceContext } from '../context.js'

/*
 * What an issue's create and edit take from their input, as GitLab's `IssuableBaseService` filters
 * it: text within its limits, a type the caller may give, labels and assignees that exist.
 */

const MAX_DESCRIPTION_BYTES = 1_048_576
const MAX_TITLE = 255

/**
 * The model's validations of what an issue's write keeps (`app/models/concerns/issuable.rb`, EE's
 * `Issue`): a title not blank nor too long, a description within its bytes, a weight not negative
 * (the `weight` given only where the write keeps it: EE, and a caller who may set metadata). Every
 * failing attribute is told, as `render_validation_error!` tells them.
 */
export function validateIssue(fields: {
  title?: string | undefined
  description?: string | undefined | null
  weight?: number | null | undefined
}) {
  const { title, description, weight } = fields
  const errors: Record<string, string[]> = {}
  if (title !== undefined && title.trim() === '') errors.title = ["can't be blank"]
  else if (title !== undefined && [...title].length > MAX_TITLE)
    errors.title = [`is too long (maximum is ${MAX_TITLE} characters)`]
  const bytes = description ? Buffer.byteLength(description) : 0
  if (bytes > MAX_DESCRIPTION_BYTES)
    errors.description = [
      `is too long (${humanSize(bytes)}). The maximum size is ${humanSize(MAX_DESCRIPTION_BYTES)}.`,
    ]
  if (typeof weight === 'number' && weight < 0) errors.weight = ['must be greater than or equal to 0']
  if (Object.keys(errors).length > 0) throw validationError(errors)
}

/** The input rules that read the store or the caller's rights. */
export function issueInputs(ctx: ServiceContext) {
  const { store, access } = ctx
  /**
   * Whether the actor may give an issue this type (`Issues::IssueTypeHelpers#create_issue_type_allowed?`):
   * an incident needs Reporter, a test case Planner or Reporter on EE. `Issues::BaseService#filter_params`
   * drops a type the actor may not give, on create and on edit alike.
   */
  const mayGiveType = (actor: Actor, project: ProjectRow, type: IssueType): boolean => {
    if (type === 'incident') return access.atLeast(actor, project, Level.reporter)
    if (type === 'test_case')
      return ctx.instance.edition === 'ee' && access.atLeast(actor, project, Level.planner)
    return true
  }

  /**
   * Label ids for titles (the project's or its groups'), creating missing project labels when `create` is allowed
   * (`app/services/issuable_base_service.rb`).
   */
  function labelIds(project: ProjectRow, titles: string[], create: boolean, now: string): number[] {
    const ids: number[] = []
    for (const title of titles) {
      // A blank title (`labels=,bug`) is no label: GitLab's Labels::FindOrCreateService cannot save one.
      if (title === '') continue
      const found = store.labels.availableByTitle(project, title)
      if (found) ids.push(found.id)
      else if (create) ids.push(store.labels.insert(project.id, title, '#6699cc', null, now))
    }
    return ids
  }

  /**
   * Assignees that exist and can read the project; CE keeps only the first
   * (`app/services/issuable_base_service.rb`).
   */
  function assigneeIds(project: ProjectRow, ids: number[]): number[] {
    const valid = ids
      .filter((id) => id > 0)
      .filter((id) => {
        const user = store.users.get(id)
        return user !== undefined && access.canReadProject(new Actor(user), project)
      })
    const unique = [...new Set(valid)]
    return ctx.instance.edition === 'ce' ? unique.slice(0, 1) : unique
  }

  return { mayGiveType, labelIds, assigneeIds }
}
