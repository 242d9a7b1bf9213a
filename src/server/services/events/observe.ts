import { today } from '../../domain/clock.js'
import type { IssueStateRow } from '../../store/issues.js'
import type { ServiceContext } from '../context.js'
import type { IssueMoveService } from '../issues/moves.js'
import type { ImportService } from '../imports.js'
import type { IssueService } from '../issues/issues.js'
import type { MemberService } from '../members/members.js'
import type { NoteService } from '../notes.js'
import type { ProjectMilestoneService } from '../project-milestones.js'
import type { ProjectWriteService } from '../project-writes.js'
import { BLANK_SHA } from '../repository/core.js'
import type { RepositoryService } from '../repository/repository.js'
import type { EventRecorder } from './record.js'

/*
 * The services whose writes GitLab records as events, observed from outside as the webhooks are
 * (hooks/observe.ts): each write is made as before and, once it has returned, what it did is
 * recorded. A write that throws records nothing.
 */

/** An issue's state now, before a write that may close or reopen it. */
const stateOf = (ctx: ServiceContext, projectId: number, iid: number) =>
  ctx.store.issues.stateByIid(projectId, iid)

/** `closed` or `reopened` when the issue moved from `before`'s state to `state`. */
function recordStateMove(
  events: EventRecorder,
  authorId: number | null,
  state: string,
  before?: IssueStateRow,
) {
  if (authorId === null || !before || state === before.state) return
  events.issue(authorId, before, state === 'closed' ? 'closed' : 'reopened')
}

/** `closed` or `reopened` when the issue's state, read again, moved since `before`. */
function stateMoved(
  ctx: ServiceContext,
  events: EventRecorder,
  authorId: number | null,
  before?: IssueStateRow,
) {
  const after = before && ctx.store.issues.get(before.id)
  if (after) recordStateMove(events, authorId, after.state, before)
}

/** `issues.create` records `created`; `issues.update` a close or reopen. */
export function withIssueEvents(
  ctx: ServiceContext,
  issues: IssueService,
  events: EventRecorder,
): IssueService {
  return {
    ...issues,
    // The answer is the issue as the write left it (its commands' moves and closes included): its
    // row is not read again (one statement less on every create and edit).
    create(actor, project, input, client) {
      const issue = issues.create(actor, project, input, client)
      if (actor.id !== null) events.issue(actor.id, issue, 'created')
      return issue
    },
    update(actor, project, iid, input) {
      const before = stateOf(ctx, project.id, iid)
      const issue = issues.update(actor, project, iid, input)
      recordStateMove(events, actor.id, issue.state, before)
      return issue
    },
  }
}

/**
 * `notes.create` records the comment (a note of quick actions only makes none); a close or reopen
 * its quick actions make goes through `issues.update`, which records it.
 */
export function withNoteEvents(ctx: ServiceContext, notes: NoteService, events: EventRecorder): NoteService {
  return {
    ...notes,
    create(actor, project, iid, input, thread) {
      const made = notes.create(actor, project, iid, input, thread)
      const note = 'id' in made ? ctx.store.notes.get(made.id) : undefined
      if (note) events.note(note, project.id)
      return made
    },
  }
}

/**
 * A move opens the new issue and closes the original (`Issues::MoveService`, through
 * `Issues::CreateService` and `Issues::CloseService`).
 */
export function withMoveEvents(
  ctx: ServiceContext,
  moves: IssueMoveService,
  events: EventRecorder,
): IssueMoveService {
  return {
    ...moves,
    move(actor, project, iid, input) {
      const before = stateOf(ctx, project.id, iid)
      const moved = moves.move(actor, project, iid, input)
      const made = ctx.store.issues.get(moved.id)
      if (actor.id !== null && made) events.issue(actor.id, made, 'created')
      stateMoved(ctx, events, actor.id, before)
      return moved
    },
  }
}

/**
 * `projectWrites.create` records `created` by the creator (a fork too), and the first commit of
 * `initialize_with_readme` a push of the default branch (GitLab commits it through the files API).
 */
export function withProjectEvents(
  ctx: ServiceContext,
  projects: ProjectWriteService,
  events: EventRecorder,
): ProjectWriteService {
  const { store } = ctx
  return {
    ...projects,
    create(actor, input, owner) {
      const made = projects.create(actor, input, owner)
      const author = owner ?? actor.user
      const project = store.projects.get(made.id)
      if (!author || !project) return made
      events.project(author.id, project.id)
      const branch = project.default_branch
      const head = branch === null ? undefined : store.repository.ref(project.id, 'branch', branch)?.sha
      if (input.initialize_with_readme && branch !== null && head !== undefined)
        events.push({ project, kind: 'branch', ref: branch, before: BLANK_SHA, after: head, user: author })
      return made
    },
  }
}

/**
 * A project import makes its project through `Projects::CreateService`, whose `after_create_actions`
 * record `created` by the importer when the request is taken, before the import runs.
 */
export function withImportEvents(imports: ImportService, events: EventRecorder): ImportService {
  return {
    ...imports,
    async create(actor, params, importType, source, requestId, check) {
      const status = await imports.create(actor, params, importType, source, requestId, check)
      if (actor.id !== null) events.project(actor.id, status.id)
      return status
    },
  }
}

/** A project milestone opened, closed, reopened (`state_event`) or destroyed. */
export function withMilestoneEvents(
  ctx: ServiceContext,
  milestones: ProjectMilestoneService,
  events: EventRecorder,
): ProjectMilestoneService {
  const { store } = ctx
  return {
    ...milestones,
    create(actor, projectId, input) {
      const made = milestones.create(actor, projectId, input)
      const row = store.milestones.get(made.id)
      if (actor.id !== null && row) events.milestone(actor.id, row, 'created')
      return made
    },
    update(actor, projectId, id, input) {
      const before = store.milestones.get(id)
      const updated = milestones.update(actor, projectId, id, input)
      const after = store.milestones.get(id)
      if (actor.id !== null && before && after && before.state !== after.state)
        events.milestone(actor.id, after, after.state === 'closed' ? 'closed' : 'reopened')
      return updated
    },
    remove(actor, projectId, id) {
      const before = store.milestones.get(id)
      milestones.remove(actor, projectId, id)
      if (actor.id !== null && before) events.milestone(actor.id, before, 'destroyed')
    },
  }
}

/**
 * A user made a member of a project records `joined`, a project membership removed `left` (`expired`
 * when it had expired), each by that user (`ProjectMember#post_create_hook`, `#post_destroy_hook`);
 * groups' memberships record none. The server removes no membership when it expires (it only stops
 * counting it, as GitLab does until its daily `RemoveExpiredMembersWorker`).
 */
export function withMemberEvents(
  ctx: ServiceContext,
  members: MemberService,
  events: EventRecorder,
): MemberService {
  const { store, access, clock } = ctx
  const projectOf = (actor: Parameters<MemberService['add']>[0], ref: string) => {
    try {
      return access.project(actor, ref)
    } catch {
      return undefined
    }
  }
  return {
    ...members,
    add(actor, kind, ref, p) {
      const project = kind === 'project' ? projectOf(actor, ref) : undefined
      // The users named (one, or comma-separated ids or usernames) and whether each was a member.
      const named = String(p.user_id ?? p.username ?? '')
        .split(',')
        .map((s) => s.trim())
        .map((s) =>
          p.username !== undefined
            ? store.users.byUsername(s)
            : /^\d+$/.test(s)
              ? store.users.get(Number(s))
              : undefined,
        )
        .filter((u) => u !== undefined)
      const wasMember = new Set(
        project ? named.filter((u) => store.members.get('project', project.id, u.id)).map((u) => u.id) : [],
      )
      const result = members.add(actor, kind, ref, p)
      if (project)
        for (const u of named)
          if (!wasMember.has(u.id) && store.members.get('project', project.id, u.id))
            events.membership(u.id, project.id, 'joined')
      return result
    },
    // A group's member leaves the projects below with it unless `skip_subresources`: each project
    // membership that went records `left`, or `expired` when its `expires_at` had come
    // (`ProjectMember#post_destroy_hook`: `expired?`, from the start of that day).
    remove(actor, kind, ref, userId, q) {
      const projectsOf = () =>
        new Set(
          store.members
            .rowsOf(userId)
            .filter((m) => m.source_type === 'project')
            .map((m) => m.source_id),
        )
      const before = projectsOf()
      const day = today(clock)
      const expired = new Set(
        [...before].filter((id) => {
          const expiresAt = store.members.get('project', id, userId)?.expires_at
          return expiresAt != null && expiresAt <= day
        }),
      )
      members.remove(actor, kind, ref, userId, q)
      const after = projectsOf()
      for (const projectId of before)
        if (!after.has(projectId))
          events.membership(userId, projectId, expired.has(projectId) ? 'expired' : 'left')
    },
  }
}

/** A comment on a commit records `commented` (`Notes::PostProcessService`, as an issue's). */
export function withCommitNoteEvents(
  repository: RepositoryService,
  events: EventRecorder,
): RepositoryService {
  repository.commitNotes.onCreated(({ row }) => events.commitNote(row))
  return repository
}

/** Every ref the repository API moves records a push (`Git::BaseHooksService#create_events`). */
export function withPushEvents(repository: RepositoryService, events: EventRecorder): RepositoryService {
  repository.onPush((event) => events.push(event))
  return repository
}
