/** `Event.actions` (app/models/event.rb): the numbers GitLab stores, by the names the `action` filter takes. */
export const EVENT_ACTIONS = {
  created: 1,
  updated: 2,
  closed: 3,
  reopened: 4,
  pushed: 5,
  commented: 6,
  merged: 7,
  joined: 8,
  left: 9,
  destroyed: 10,
  expired: 11,
  approved: 12,
} as const
export type EventAction = keyof typeof EVENT_ACTIONS

/**
 * The stored `target_type` of a comment on a commit, and the class GitLab names (`Note`, or
 * `LegacyDiffNote` on a line of its diff): our comments on commits have a table, and ids, of their own.
 */
export const COMMIT_NOTE_TARGETS: Readonly<Record<string, string>> = {
  CommitNote: 'Note',
  CommitLegacyDiffNote: 'LegacyDiffNote',
}

/** The stored `target_type`s of the events GitLab lists for `target_type` class `cls`. */
export const storedTargetTypes = (cls: string): string[] => [
  cls,
  ...Object.keys(COMMIT_NOTE_TARGETS).filter((stored) => COMMIT_NOTE_TARGETS[stored] === cls),
]

/** The actions of a project's own events (`Event::PROJECT_ACTIONS`): their target is the project, or none before 18.4. */
export const PROJECT_EVENT_ACTIONS: readonly number[] = [
  EVENT_ACTIONS.created,
  EVENT_ACTIONS.joined,
  EVENT_ACTIONS.left,
  EVENT_ACTIONS.expired,
]

/** `Event::TARGET_TYPES`: the class each `target_type` filter value names. */
export const EVENT_TARGET_CLASSES: Record<string, string> = {
  issue: 'Issue',
  milestone: 'Milestone',
  merge_request: 'MergeRequest',
  note: 'Note',
  project: 'Project',
  snippet: 'Snippet',
  user: 'User',
  wiki: 'WikiPage::Meta',
  design: 'DesignManagement::Design',
}

/**
 * `Event#action_name`: a push by what it did to its ref; otherwise by action, `created` for a project
 * (no target, or the project itself) and `opened` for anything else created or reopened.
 */
export function eventActionName(
  action: number,
  targetType: string | null,
  pushAction: string | null,
): string {
  const A = EVENT_ACTIONS
  switch (action) {
    case A.pushed:
      return pushAction === 'created' ? 'pushed new' : pushAction === 'removed' ? 'deleted' : 'pushed to'
    case A.closed:
      return 'closed'
    case A.merged:
      return 'accepted'
    case A.joined:
      return 'joined'
    case A.left:
      return 'left'
    case A.expired:
      return 'removed due to membership expiration from'
    case A.destroyed:
      return 'destroyed'
    case A.commented:
      return 'commented on'
    case A.approved:
      return 'approved'
    default:
      return action === A.created && (targetType === null || targetType === 'Project') ? 'created' : 'opened'
  }
}
