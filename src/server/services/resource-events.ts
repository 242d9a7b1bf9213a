import type {
  ResourceIterationEvent,
  ResourceLabelEvent,
  ResourceMilestoneEvent,
  ResourceStateEvent,
  ResourceWeightEvent,
} from '../../schema/index.js'
import { today } from '../domain/clock.js'
import { recordNotFound } from '../grape/gitlab-errors.js'
import { rubyToI } from '../grape/params.js'
import { presentLabel, presentMilestone } from '../present/issues.js'
import { presentUser } from '../present/users.js'
import type { ProjectRow } from '../store/projects.js'
import type { Actor } from './access.js'
import { requireUser, type IssueDeps } from './issues/lookup.js'

/** The kinds of events, as their routes name them. */
export type EventKind = 'label' | 'milestone' | 'state' | 'weight' | 'iteration'

/**
 * An issue's resource events (`lib/api/resource_label_events.rb`, `resource_milestone_events.rb`,
 * `resource_state_events.rb`, EE's `resource_weight_events.rb` and `resource_iteration_events.rb`):
 * every call authenticates first; the issue is found by iid (`404 Not found`); events oldest first.
 * Milestone events show only milestones that still exist (`ResourceMilestoneEventFinder`). The
 * server has no iterations: their lists are empty.
 */
export function resourceEventService(deps: IssueDeps) {
  const { store, instance } = deps.ctx

  const issueOf = (actor: Actor, project: ProjectRow, rawIid: string) => {
    requireUser(actor)
    return deps.issues.findIssue(actor, project, rubyToI(rawIid))
  }
  const userOf = (id: number | null) => {
    const user = id === null ? undefined : store.users.get(id)
    return user ? presentUser(user, instance) : null
  }
  const head = (e: { id: number; user_id: number | null; created_at: string; issue_id: number }) => ({
    id: e.id,
    user: userOf(e.user_id),
    created_at: e.created_at,
    resource_type: 'Issue',
    resource_id: e.issue_id,
  })

  const lists = {
    label: (project: ProjectRow, issueId: number): ResourceLabelEvent[] =>
      store.resourceEvents.labels(issueId).map((e) => ({
        ...head(e),
        label:
          e.label_id !== null && e.label_title !== null
            ? presentLabel({
                id: e.label_id,
                project_id: project.id,
                group_id: null,
                title: e.label_title,
                color: e.label_color as string,
                description: e.label_description,
                priority: null,
                created_at: e.created_at,
              })
            : null,
        action: e.action,
      })),
    milestone: (project: ProjectRow, issueId: number): ResourceMilestoneEvent[] => {
      const day = today(deps.ctx.clock)
      return store.resourceEvents.milestones(issueId).flatMap((e) => {
        const milestone = e.milestone_id === null ? undefined : store.milestones.get(e.milestone_id)
        if (!milestone) return []
        return [
          {
            ...head(e),
            milestone: presentMilestone(milestone, instance, day),
            action: e.action,
            state: e.state,
          },
        ]
      })
    },
    state: (_project: ProjectRow, issueId: number): ResourceStateEvent[] =>
      store.resourceEvents.states(issueId).map((e) => ({
        ...head(e),
        source_commit: e.source_commit,
        source_merge_request_id: e.source_merge_request_id,
        state: e.state,
      })),
    weight: (_project: ProjectRow, issueId: number): ResourceWeightEvent[] =>
      store.resourceEvents.weights(issueId).map((e) => ({
        id: e.id,
        user: userOf(e.user_id),
        created_at: e.created_at,
        issue_id: e.issue_id,
        weight: e.weight,
      })),
    iteration: (): ResourceIterationEvent[] => [],
  }

  type Listed<K extends EventKind> = ReturnType<(typeof lists)[K]>[number]

  return {
    list<K extends EventKind>(kind: K, actor: Actor, project: ProjectRow, rawIid: string): Listed<K>[] {
      const issue = issueOf(actor, project, rawIid)
      return lists[kind](project, issue.id) as Listed<K>[]
    },
    /** One event of the issue by id (`find`: `404 Not found` for another issue's, or none). */
    get<K extends EventKind>(
      kind: K,
      actor: Actor,
      project: ProjectRow,
      rawIid: string,
      rawId: string,
    ): Listed<K> {
      const issue = issueOf(actor, project, rawIid)
      const id = rubyToI(rawId)
      const event = (lists[kind](project, issue.id) as Listed<K>[]).find((e) => e.id === id)
      if (!event) throw recordNotFound()
      return event
    },
  }
}
export type ResourceEventService = ReturnType<typeof resourceEventService>
