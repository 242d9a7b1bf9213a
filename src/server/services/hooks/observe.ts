import type { EnvironmentService } from '../environments.js'
import type { IssueService } from '../issues/issues.js'
import type { NoteService } from '../notes.js'
import type { RepositoryService } from '../repository/repository.js'
import type { HookEvents } from './events.js'

/*
 * The issue and note services with webhooks: each write is made as before and, once it has returned
 * (its transaction committed), the event is handed to the hooks, which deliver it later. A write
 * that throws sends nothing.
 */

/** `issues.create` and `issues.update` tell the hooks (`open`; `update`, `close`, `reopen`). */
export function withIssueHooks(issues: IssueService, events: HookEvents): IssueService {
  return {
    ...issues,
    create(actor, project, input, client) {
      const issue = issues.create(actor, project, input, client)
      events.issueCreated(actor, project.id, issue.id)
      return issue
    },
    update(actor, project, iid, input) {
      const before = events.issueBefore(project.id, iid)
      const issue = issues.update(actor, project, iid, input)
      events.issueUpdated(actor, before)
      return issue
    },
  }
}

/** `notes.create` tells the hooks of a note made (a reply with only quick actions makes none). */
export function withNoteHooks(notes: NoteService, events: HookEvents): NoteService {
  return {
    ...notes,
    create(actor, project, iid, input, thread) {
      const before = events.issueBefore(project.id, iid)
      const made = notes.create(actor, project, iid, input, thread)
      if ('id' in made) events.noteCreated(actor, made.id)
      // Quick actions in the note (`/close`, `/label`) change the issue as an update does.
      events.issueUpdated(actor, before)
      return made
    },
  }
}

/** A comment on a commit tells the hooks (`Notes::PostProcessService#execute_note_hooks`). */
export function withCommitNoteHooks(repository: RepositoryService, events: HookEvents): RepositoryService {
  repository.commitNotes.onCreated((made) => events.commitNoteCreated(made))
  return repository
}

/** A deployment made or moved through the API tells the hooks (`Deployment`'s transitions). */
export function withDeploymentHooks(
  environments: EnvironmentService,
  events: HookEvents,
): EnvironmentService {
  return {
    ...environments,
    createDeployment(actor, project, params) {
      const made = environments.createDeployment(actor, project, params)
      events.deploymentsMoved()
      return made
    },
    updateDeployment(actor, project, id, status) {
      const moved = environments.updateDeployment(actor, project, id, status)
      events.deploymentsMoved()
      return moved
    },
  }
}
