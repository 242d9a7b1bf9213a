import type {
  Project,
  ProjectCreate,
  ProjectDeleteQuery,
  ProjectUpdate,
  UserProjectsQuery,
} from '../../schema/index.js'
import { isoNow, today } from '../domain/clock.js'
import {
  nameAndPath,
  nameAndPathErrors,
  visibilityAboveForkSource,
  visibilityAboveGroup,
} from '../domain/project-paths.js'
import { delaysDeletion } from '../domain/delayed-deletion.js'
import { filesCommit } from '../git/commit-files.js'
import { signatureAt } from '../git/trees.js'
import { defaultBranchProtection } from './repository/core.js'
import { errorList, forbidden, messageError, notFound, validationError } from '../grape/gitlab-errors.js'
import { defaultProfile } from '../present/users.js'
import type { NamespaceRow } from '../store/namespaces.js'
import type { ProjectChanges } from '../store/project-settings.js'
import type { ProjectRow } from '../store/projects.js'
import type { UserRow } from '../store/users.js'
import { Actor, Level, type Access } from './access.js'
import type { ServiceContext } from './context.js'
import {
  featuresAfter,
  publicBuildsOf,
  settingsOf,
  targetSelfOf,
  topicsOf,
  type Features,
} from './project-settings.js'
import { projectMoves } from './project-moves.js'
import { removals, type RemovalHooks } from './removals.js'
import type { ProjectService } from './projects.js'

/**
 * Creating, editing, archiving and deleting projects (`lib/api/projects.rb`,
 * `app/services/projects/{create,update,destroy}_service.rb`, `Projects::MarkForDeletionService`).
 * `reads` presents the answers as `GET /projects/:id` does.
 */
export function projectWriteService(
  ctx: ServiceContext,
  reads: ProjectService,
  hooks: ProjectWriteHooks = {},
) {
  const { store, access, clock, instance } = ctx

  /** Another project or group at `fullPath`, or a project named `name` in the namespace. */
  const taken = (ns: NamespaceRow, name: string, path: string, except?: number) => {
    const fullPath = `${ns.full_path}/${path}`
    const other = store.projects.byPath(fullPath)
    const pathTaken =
      (other !== undefined && other.id !== except) || store.namespaces.byPath(fullPath) !== undefined
    const nameTaken = store.projectSettings.nameTaken(ns.id, name, except ?? 0)
    return { nameTaken, pathTaken }
  }

  /**
   * The model's validation errors for a project named `name` at `path` in `ns` with `visibility`,
   * in GitLab's order: a taken name also on the project namespace (`project_namespace.name`), as
   * GitLab answers it; a path taken by a project or a group at the same full path. On an edit
   * (`was`), the formats of a name or path left as they were are not checked again (`if: :name_changed?`),
   * nor a visibility left as it was against the group's.
   */
  const validate = (ns: NamespaceRow, name: string, path: string, visibility: string, was?: ProjectRow) => {
    const except = was?.id
    const format = nameAndPathErrors(name, path)
    if (was?.name === name) delete format.name
    if (was?.path === path) delete format.path
    const { nameTaken, pathTaken } = taken(ns, name, path, except)
    const errors: Record<string, string[]> = {}
    if (nameTaken) errors['project_namespace.name'] = ['has already been taken']
    const add = (field: string, message: string) => (errors[field] ??= []).push(message)
    for (const m of format.name ?? []) add('name', m)
    if (nameTaken) add('name', 'has already been taken')
    for (const m of format.path ?? []) add('path', m)
    if (pathTaken) add('path', 'has already been taken')
    // `should_validate_visibility_level?` (app/models/project.rb): on create, or when the visibility changes.
    if (ns.kind === 'group' && was?.visibility !== visibility) {
      const above = visibilityAboveGroup(visibility, ns.visibility)
      if (above) add('visibility_level', above)
    }
    // A fork's `fork_source`: the project it was forked from, else its network's root.
    const fork = was && was.visibility !== visibility ? store.forks.member(was.id) : undefined
    const sourceId = fork && (fork.forked_from_project_id ?? fork.root_project_id)
    const source = sourceId && sourceId !== was?.id ? store.projects.get(sourceId) : undefined
    if (source) {
      const above = visibilityAboveForkSource(visibility, source.visibility)
      if (above) add('visibility_level', above)
    }
    if (Object.keys(errors).length > 0) throw validationError(errors)
  }

  const mayCreateIn = (user: UserRow, ns: NamespaceRow) => mayCreateProjectIn(access, user, ns)

  /** `Project#check_personal_projects_limit`'s message, or null when the user may add one more. */
  const limitReached = (user: UserRow, ns: NamespaceRow): string | null => {
    if (ns.kind !== 'user' || ns.owner_id !== user.id) return null
    const limit = (store.users.profile(user.id) ?? defaultProfile(user.id)).projects_limit
    if (store.namespaces.projectCount(ns.id) < limit) return null
    return limit === 0
      ? 'Personal project creation is not allowed. Please contact your administrator with questions'
      : `Your project limit is ${limit} projects! Please contact your administrator to increase it`
  }

  /** Removes the project with every row under it and its access token bots, then its files. */
  const removeNow = removals(ctx, hooks).project

  const ownerOnly = (actor: Actor, project: ProjectRow) => {
    if (!access.atLeast(actor, project, Level.owner)) throw forbidden()
  }

  /** `find_user` (lib/api/helpers.rb): a user by id, or by username when not all digits; 404 `User Not Found`. */
  const findUser = (ref: string): UserRow => {
    const user = /^\d+$/.test(ref) ? store.users.get(Number(ref)) : store.users.byUsername(ref)
    if (!user) throw notFound('User')
    return user
  }

  return {
    ...projectMoves(ctx, reads),

    /** `POST /projects/user/:user_id`: administrators only (403), then the user (404), then `create`. */
    createForUser(actor: Actor, userId: number, input: ProjectCreate): Project {
      if (!actor.admin) throw forbidden()
      return this.create(actor, input, findUser(String(userId)))
    },

    /** `GET /users/:user_id/projects`: 404 `User Not Found`, else services/projects.ts `ofUser`. */
    listForUser(actor: Actor, userRef: string, q: UserProjectsQuery) {
      const user = findUser(userRef)
      return reads.ofUser(actor, store.namespaces.ofUser(user.id)?.id ?? 0, q)
    },

    /**
     * `POST /projects` and (with `owner`) `POST /projects/user/:user_id`: the project in
     * `namespace_id` or the creator's personal namespace. 400 `{"namespace":["is not valid"]}` when
     * the creator may not create there (or it does not exist), 403 with the limit's message (Grape's
     * `error!` of an array: `{"error":[...]}`) past `projects_limit` in a personal namespace, 400 with
     * the model's errors otherwise. The owner of a personal namespace becomes the project's Owner
     * (`Projects::CreateService#add_members`); `initialize_with_readme` makes the first commit on
     * `default_branch` (`main`). Answers `Entities::Project`.
     */
    create(actor: Actor, input: ProjectCreate, owner?: UserRow): Project {
      const creator = owner ?? actor.user
      if (!creator) throw forbidden()
      const ns =
        input.namespace_id === undefined
          ? store.namespaces.ofUser(creator.id)
          : store.namespaces.get(input.namespace_id)
      // The personal limit is checked first, then the permission (`Projects::CreateService#execute`).
      const limit = ns && limitReached(creator, ns)
      if (limit) throw errorList(403, [limit])
      if (!ns || !mayCreateIn(creator, ns)) throw validationError({ namespace: ['is not valid'] })
      const { name, path } = nameAndPath(input.name?.trim() || undefined, input.path?.trim() || undefined)
      const visibility = input.visibility ?? 'private'
      validate(ns, name, path, visibility)
      const now = isoNow(clock)
      const branch = input.default_branch?.trim() || 'main'
      const id = store.transaction(() => {
        const projectId = store.projects.insert({
          namespace_id: ns.id,
          path,
          full_path: `${ns.full_path}/${path}`,
          name,
          description: input.description ?? null,
          visibility,
          archived: 0,
          default_branch: branch,
          creator_id: creator.id,
          // No seed shortcut: without a committed `.gitlab-ci.yml`, pipelines are `Missing CI config file`.
          ci_config: 0,
          ci_jobs: '["build"]',
          ci_outcome: 'success',
          ci_job_duration_ms: 2000,
          created_at: now,
          last_activity_at: now,
        })
        store.projectSettings.put({
          ...settingsOf(store, projectId),
          topics: JSON.stringify(topicsOf(input) ?? []),
          features: JSON.stringify(featuresAfter({}, input)),
          public_builds: publicBuildsOf(input) ?? 1,
          mr_default_target_self: targetSelfOf(input) ?? 0,
        })
        if (input.keep_latest_artifact !== undefined)
          store.projectSettings.setKeepLatestArtifact(projectId, input.keep_latest_artifact)
        if (ns.kind === 'user' && ns.owner_id !== null)
          store.members.set('project', projectId, ns.owner_id, Level.owner, now)
        if (input.initialize_with_readme) {
          // `Projects::CreateService#create_readme`: README.md on the default branch, by the creator.
          const readme = `# ${name}\n\n${input.description ?? ''}\n`
          const who = signatureAt(creator.name, creator.email ?? '', now)
          const commit = filesCommit(store.gitObjects, { 'README.md': readme }, 'Initial commit', who)
          store.gitObjects.put(commit)
          store.repository.addCommit(projectId, commit.sha)
          store.projects.addRef(projectId, 'branch', branch, commit.sha)
          store.repository.protect(defaultBranchProtection(projectId, branch))
        }
        return projectId
      })
      return reads.record(store.projects.get(id)!, actor)
    },

    /**
     * `PUT /projects/:id`: Maintainer+ (`admin_project`, 403 otherwise); `visibility` needs Owner
     * (`change_visibility_level`). A name or path is checked as on create; `default_branch` must be a
     * branch of the project (400 otherwise, `Projects::UpdateService#validate_default_branch_change`).
     */
    update(actor: Actor, ref: string, input: ProjectUpdate): Project {
      const project = access.project(actor, ref)
      if (!access.atLeast(actor, project, Level.maintainer)) throw forbidden()
      if (input.visibility !== undefined) ownerOnly(actor, project)
      const ns = store.namespaces.get(project.namespace_id)!
      const name = input.name?.trim() || project.name
      const path = input.path?.trim() || project.path
      const visibility = input.visibility ?? project.visibility
      validate(ns, name, path, visibility, project)
      if (input.default_branch !== undefined && input.default_branch !== project.default_branch) {
        if (!store.pipelines.refsNamed(project.id, input.default_branch).some((r) => r.kind === 'branch'))
          throw messageError(
            400,
            "Could not set the default branch. Do you have a branch named 'HEAD' in your repository?",
          )
      }
      const changes: ProjectChanges = { name, path, full_path: `${ns.full_path}/${path}`, visibility }
      if (input.description !== undefined) changes.description = input.description
      if (input.default_branch !== undefined) changes.default_branch = input.default_branch
      const settings = settingsOf(store, project.id)
      const topics = topicsOf(input)
      store.transaction(() => {
        store.projectSettings.update(project.id, changes)
        store.projectSettings.put({
          ...settings,
          topics: topics ? JSON.stringify(topics) : settings.topics,
          features: JSON.stringify(featuresAfter(JSON.parse(settings.features) as Features, input)),
          public_builds: publicBuildsOf(input) ?? settings.public_builds,
          mr_default_target_self: targetSelfOf(input) ?? settings.mr_default_target_self,
        })
        // A project that stops keeping them leaves its locked pipelines locked: a newer successful
        // pipeline of their ref unlocks them (GitLab: "a new pipeline must run").
        if (input.keep_latest_artifact !== undefined)
          store.projectSettings.setKeepLatestArtifact(project.id, input.keep_latest_artifact)
      })
      return reads.record(store.projects.get(project.id)!, actor)
    },

    /** `POST /projects/:id/archive` and `/unarchive`: Owner (`archive_project`); 201 with the project either way. */
    setArchived(actor: Actor, ref: string, archived: boolean): Project {
      const project = access.project(actor, ref)
      ownerOnly(actor, project)
      store.projectSettings.update(project.id, { archived: archived ? 1 : 0 })
      return reads.record(store.projects.get(project.id)!, actor)
    },

    /**
     * `DELETE /projects/:id`: Owner (`remove_project`, 403 otherwise), 202 `{"message":"202 Accepted"}`.
     * Where delayed deletion applies (EE; every edition from 18.0) the project is marked
     * (`Projects::MarkForDeletionService`: name and path get `-deletion_scheduled-<id>`,
     * `marked_for_deletion_at` today; 400 `Project has been already marked for deletion` a second
     * time); `permanently_remove=true` with the marked project's `full_path` removes it at once
     * (`ee/lib/ee/api/helpers/projects_helpers.rb`). Removal takes everything under the project.
     */
    remove(actor: Actor, ref: string, q: ProjectDeleteQuery): void {
      const project = access.project(actor, ref)
      ownerOnly(actor, project)
      if (!delaysDeletion(instance, 'project')) return removeNow(project)
      const settings = settingsOf(store, project.id)
      if (q.permanently_remove) {
        if (!settings.marked_for_deletion_at)
          throw messageError(400, 'Project must be marked for deletion first.')
        if (q.full_path !== project.full_path)
          throw messageError(
            400,
            '`full_path` is incorrect. You must enter the complete path for the project.',
          )
        return removeNow(project)
      }
      if (settings.marked_for_deletion_at)
        throw messageError(400, 'Project has been already marked for deletion')
      const suffix = `-deletion_scheduled-${project.id}`
      const ns = store.namespaces.get(project.namespace_id)!
      store.transaction(() => {
        store.projectSettings.update(project.id, {
          name: `${project.name}${suffix}`,
          path: `${project.path}${suffix}`,
          full_path: `${ns.full_path}/${project.path}${suffix}`,
        })
        store.projectSettings.put({
          ...settings,
          marked_for_deletion_at: today(clock),
          deleting_user_id: actor.id,
        })
      })
    },
  }
}
export type ProjectWriteService = ReturnType<typeof projectWriteService>

/** What the composition root hears of: the files a removed project left outside the database. */
export type ProjectWriteHooks = RemovalHooks

/** `can?(user, :create_projects, namespace)`: the owner of a personal namespace, Maintainer+ of a group, admins. */
export function mayCreateProjectIn(access: Access, user: UserRow, ns: NamespaceRow): boolean {
  if (user.admin === 1) return true
  if (ns.kind === 'user') return ns.owner_id === user.id
  return access.groupLevel(new Actor(user), ns) >= Level.maintainer
}
