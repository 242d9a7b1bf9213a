/*
 * What GitLab records as resource events for one change of an issue
 * (`Issuable::CommonSystemNotesService`, `ResourceEvents::ChangeLabelsService`,
 * `ChangeMilestoneService`, `ChangeStateService`, EE's `ChangeWeightService`), from the issue before
 * and after: labels added and removed, the milestone set (`add`, the new one) or cleared (`remove`,
 * the old one) with the issue's state then, `closed` or `reopened`, and a new weight.
 */

interface IssueState {
  state: string
  milestone_id: number | null
  weight: number | null
}

export interface IssueEventChanges {
  labels?: { added: number[]; removed: number[] }
  milestone?: { action: 'add' | 'remove'; milestoneId: number; state: string }
  state?: 'closed' | 'reopened'
  weight?: { weight: number | null }
}

/** The events of a change from `before` (undefined for a new issue) to `after`; labels by id. */
export function issueEventChanges(
  before: IssueState | undefined,
  after: IssueState,
  labels: { before: number[]; after: number[] },
  withWeight: boolean,
): IssueEventChanges {
  const out: IssueEventChanges = {}
  const added = labels.after.filter((id) => !labels.before.includes(id))
  const removed = labels.before.filter((id) => !labels.after.includes(id))
  if (added.length > 0 || removed.length > 0) out.labels = { added, removed }
  const oldMilestone = before?.milestone_id ?? null
  if (after.milestone_id !== oldMilestone) {
    out.milestone =
      after.milestone_id === null
        ? { action: 'remove', milestoneId: oldMilestone as number, state: after.state }
        : { action: 'add', milestoneId: after.milestone_id, state: after.state }
  }
  if (before && before.state !== after.state) out.state = after.state === 'closed' ? 'closed' : 'reopened'
  if (withWeight && before && before.weight !== after.weight) out.weight = { weight: after.weight }
  return out
}
