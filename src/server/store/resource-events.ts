import type { IssueEventChanges } from '../domain/issue-events.js'
import type { Db } from './db.js'

interface EventBase {
  id: number
  issue_id: number
  user_id: number | null
  created_at: string
}
/** A label event, with its label's columns when the label still exists. */
export interface LabelEventRow extends EventBase {
  action: 'add' | 'remove'
  label_id: number | null
  label_title: string | null
  label_color: string | null
  label_description: string | null
}
export interface MilestoneEventRow extends EventBase {
  action: 'add' | 'remove'
  milestone_id: number | null
  state: string
}
export interface StateEventRow extends EventBase {
  state: 'closed' | 'reopened'
  source_commit: string | null
  source_merge_request_id: number | null
}
export interface WeightEventRow extends EventBase {
  weight: number | null
}

/** The resource events of issues: label, milestone, state and weight changes, oldest first. */
export function resourceEventTable(db: Db) {
  const addLabel = db.prepare(
    'INSERT INTO resource_label_events (issue_id, user_id, label_id, action, created_at) VALUES (?, ?, ?, ?, ?)',
  )
  const addMilestone = db.prepare(
    `INSERT INTO resource_milestone_events (issue_id, user_id, milestone_id, action, state, created_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  )
  const addState = db.prepare(
    'INSERT INTO resource_state_events (issue_id, user_id, state, created_at) VALUES (?, ?, ?, ?)',
  )
  const addWeight = db.prepare(
    'INSERT INTO resource_weight_events (issue_id, user_id, weight, created_at) VALUES (?, ?, ?, ?)',
  )
  const labelEvents = db.prepare(
    `SELECT e.*, l.title AS label_title, l.color AS label_color, l.description AS label_description
     FROM resource_label_events e LEFT JOIN labels l ON l.id = e.label_id
     WHERE e.issue_id = ? ORDER BY e.id`,
  )
  const of = (table: string) => db.prepare(`SELECT * FROM ${table} WHERE issue_id = ? ORDER BY id`)
  const milestoneEvents = of('resource_milestone_events')
  const stateEvents = of('resource_state_events')
  const weightEvents = of('resource_weight_events')
  return {
    /** Records what one change did to the issue, by `userId`, at `now`. */
    record(issueId: number, userId: number | null, events: IssueEventChanges, now: string): void {
      for (const id of events.labels?.added ?? []) addLabel.run(issueId, userId, id, 'add', now)
      for (const id of events.labels?.removed ?? []) addLabel.run(issueId, userId, id, 'remove', now)
      const m = events.milestone
      if (m) addMilestone.run(issueId, userId, m.milestoneId, m.action, m.state, now)
      if (events.state) addState.run(issueId, userId, events.state, now)
      if (events.weight) addWeight.run(issueId, userId, events.weight.weight, now)
    },
    labels: (issueId: number) => labelEvents.all(issueId) as unknown as LabelEventRow[],
    milestones: (issueId: number) => milestoneEvents.all(issueId) as unknown as MilestoneEventRow[],
    states: (issueId: number) => stateEvents.all(issueId) as unknown as StateEventRow[],
    weights: (issueId: number) => weightEvents.all(issueId) as unknown as WeightEventRow[],
  }
}
