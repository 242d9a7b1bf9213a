/*
 * The issue-sync engine's data: both forges' issues in one neutral shape, the
 * settings, the plan's operations and the report. Plain data only: no I/O, no clock, no @actions.
 */

/** The two forges. */
export type Side = 'github' | 'gitlab'
export const other = (side: Side): Side => (side === 'github' ? 'gitlab' : 'github')

/** Which way changes flow. `both`: each field from the side that changed it (see plan.ts). */
export type Direction = 'github-to-gitlab' | 'gitlab-to-github' | 'both'

/** A comment (GitHub) or user note (GitLab), as the adapters read it. */
export interface SideComment {
  id: number
  body: string
  author: string
  created_at: string
  url: string
  /** A GitLab internal note (`internal`), visible to project members only. */
  internal?: boolean
}

/** One issue of either side, as the adapters read it. `number` is GitHub's number or GitLab's iid. */
export interface SideIssue {
  side: Side
  number: number
  title: string
  /** The raw body/description as stored, markers included ('' for none). */
  body: string
  state: 'open' | 'closed'
  /** Label names, as the side spells them. */
  labels: string[]
  /** GitHub logins or GitLab usernames. */
  assignees: string[]
  /** Milestone title, or null. */
  milestone: string | null
  author: string
  url: string
  updated_at: string
  /** A confidential GitLab issue (`confidential`), visible to project members only. */
  confidential?: boolean
  /** GitHub's `comments`, GitLab's `user_notes_count`: user comments, mirrored ones included. */
  comment_count: number
  /** A closed issue's reason as GitHub says it (`state_reason`); GitLab says none. */
  close_reason?: 'completed' | 'not_planned' | 'duplicate'
  /** GitLab: the API address of the issue this one was closed as a duplicate of (`_links`). */
  duplicate_of?: string
  /** Loaded only when the planner asks for them (needsComments); undefined means "not read". */
  comments?: SideComment[]
}

/** The fields the sync keeps in step, in the side's own vocabulary; `body` without header or marker. */
export interface Fields {
  title: string
  body: string
  state: 'open' | 'closed'
  labels: string[]
  assignees: string[]
  milestone: string | null
}
export type FieldName = keyof Fields
export const FIELDS: readonly FieldName[] = ['title', 'body', 'state', 'labels', 'assignees', 'milestone']

/** Where each side lives: markers name them, the visible link-back names them. */
export interface Places {
  /** `owner/repo` and its numeric id (ids survive renames; markers carry both). */
  github: { repo: string; id: number }
  /** `group/project` full path and its numeric id. */
  gitlab: { project: string; id: number }
}

/** What the planner needs besides the issues; every field is plain data. */
export interface SyncOptions {
  direction: Direction
  places: Places
  /** Mirror comments (GitHub comments <-> GitLab notes) as the direction allows. */
  comments: boolean
  /** GitHub label name -> GitLab label name; unmapped names get `labelPrefix`. */
  labelMap: Record<string, string>
  /** Prefix of GitLab labels that mirror GitHub labels (`gh:`); '' for none (every label mirrors). */
  labelPrefix: string
  /** GitHub login -> GitLab username; unmapped users are not carried over. */
  userMap: Record<string, string>
  /** GitLab usernames that exist (resolved by the adapter); mapped users outside it are dropped. */
  gitlabUsers: readonly string[]
  /** Milestone titles that exist on each side; a title the target lacks leaves the target alone. */
  milestones: { github: readonly string[]; gitlab: readonly string[] }
  /** The tokens' own users (GitHub login, GitLab username), to tell our mirrors from people's text. */
  identity: { github?: string; gitlab?: string }
  /** Mirror confidential GitLab issues and internal notes to GitHub too (off: they never leave GitLab). */
  includeConfidential: boolean
  /**
   * The web addresses of the repository and the project (`https://github.com/acme/widgets`): given,
   * references, mentions and relative links in copied text are rewritten for the other side
   * (references.ts); absent, text is copied as written. syncIssues always gives them.
   */
  web?: { github: string; gitlab: string }
  /** Mirror only issues that carry one of these labels (either side's spelling); empty or absent: all. */
  onlyLabels?: readonly string[]
}

/** The values an issue is created or updated with. */
export type IssueWrite = Partial<Fields> & { body?: string; state_reason?: 'completed' | 'duplicate' }
/** The values an issue is created with (`state_reason`: GitHub only, when it is created closed). */
export type IssueCreate = Fields & { state_reason?: 'completed' | 'duplicate' }

/** One write. Ops of one pair share `key` and run in order; a failure skips the rest of its pair. */
export type Op =
  | {
      kind: 'create'
      key: string
      side: Side
      /** The issue it mirrors. */
      from: { side: Side; number: number; url: string; title: string }
      /** Raw values to write; `state: 'closed'` closes it right after creating it. */
      set: IssueCreate
    }
  | {
      kind: 'update'
      key: string
      side: Side
      number: number
      from: { side: Side; number: number; url: string; title: string }
      /** Raw values that differ (the body may differ only in its marker). */
      set: IssueWrite
      /** Fields whose synced value changed (excludes a marker-only body write). */
      changed: FieldName[]
    }
  | {
      kind: 'comment'
      key: string
      side: Side
      /** The target issue's number, or undefined when it is created by this pair's create op. */
      number: number | undefined
      from: { side: Side; number: number; comment: number; url: string }
      body: string
    }
  | {
      /** A mirrored comment whose source was edited: its new text. */
      kind: 'comment-edit'
      key: string
      side: Side
      number: number
      /** The mirror comment's id on `side`. */
      comment: number
      from: { side: Side; number: number; comment: number; url: string }
      body: string
    }
  | {
      /** A mirrored comment whose source was deleted. */
      kind: 'comment-delete'
      key: string
      side: Side
      number: number
      comment: number
      from: { side: Side; number: number; comment: number; url: string }
    }

/** A problem found while planning (no write was planned for it). */
export interface Skip {
  key: string
  /** The origin the skipped issue claims, when it claims one. */
  origin?: string
  reason: string
}

/** What was kept off GitHub because GitLab shows it to project members only. */
export interface Confidential {
  issues: number
  notes: number
}

/** What apply did: plain data, rendered by src/actions/sync-issues/summary.ts. */
export interface SyncReport {
  created: Op[]
  updated: Op[]
  closed: Op[]
  reopened: Op[]
  commented: Op[]
  /** Mirrored comments rewritten after their source was edited. */
  edited: Op[]
  /** Mirrored comments deleted after their source was deleted. */
  deleted: Op[]
  failed: { op: Op; error: string }[]
  /** Pairs with nothing to write. */
  unchanged: number
  skipped: Skip[]
  /** Confidential GitLab issues and internal notes kept off GitHub (`include-confidential` off). */
  confidential: Confidential
  /** Mirrored pairs left alone because neither issue carries a label of `only-labels` any more. */
  descoped: Skip[]
  /** Every planned op, in order (also when nothing was applied: dry run). */
  planned: Op[]
  dryRun: boolean
}
