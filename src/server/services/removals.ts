import { isoNow } from '../domain/clock.js'
import type { NamespaceRow } from '../store/namespaces.js'
import type { ProjectRow } from '../store/projects.js'
import type { ServiceContext } from './context.js'
import { ghostUser } from './ghost-user.js'

/** The files a removed project leaves outside the database, for the composition root to delete. */
export interface RemovedFiles {
  exports: string[]
  metricImages: { id: number; filename: string }[]
}

/** What the composition root hears of: the files removed projects left outside the database. */
export interface RemovalHooks {
  onRemoved?: (files: RemovedFiles) => void
}

/**
 * Removing a project or a group for good, with what goes beside the rows:
 * - the bot users of their project and group access tokens, with their tokens
 *   (`Projects::DestroyService#destroy_project_bots!`, `Groups::DestroyService#destroy_associated_users`:
 *   `Users::DestroyService` without `hard_delete`, so what the bots made goes to the Ghost User);
 * - the files of every project removed (export archives, metric images), once the rows are gone.
 */
export function removals(ctx: ServiceContext, hooks: RemovalHooks = {}) {
  const { store, clock } = ctx

  const dropBots = (bots: readonly number[]) => {
    if (bots.length === 0) return
    const ghost = ghostUser(store, isoNow(clock))
    for (const bot of bots) {
      store.users.reassign(bot, ghost)
      store.users.remove(bot)
    }
  }
  const projectBots = (projectId: number) => store.accessTokens.botsOf('project', projectId)
  /** The project's rows and bots, inside the caller's transaction; returns its files for `discard` after it commits. */
  const projectRows = (project: ProjectRow): RemovedFiles => {
    const files = store.projectSettings.filesOf(project.id)
    dropBots(projectBots(project.id))
    store.projectSettings.remove(project.id)
    return files
  }
  /** Deletes what removed projects left on disk, once their rows are gone for good. */
  const discard = (files: RemovedFiles) => hooks.onRemoved?.(files)

  return {
    /** Removes these bot users (one token's, when it is revoked); inside the caller's transaction. */
    bots: dropBots,
    /** Removes the project with every row under it and its bots, then its files. */
    project(project: ProjectRow): void {
      discard(store.transaction(() => projectRows(project)))
    },
    projectRows,
    discard,
    /** Removes the group, the groups and projects below it and all their bots, then the projects' files. */
    group(group: NamespaceRow): void {
      const files: RemovedFiles = { exports: [], metricImages: [] }
      store.transaction(() => {
        const bots: number[] = []
        for (const g of store.groupWrites.subtree(group.id)) {
          bots.push(...store.accessTokens.botsOf('namespace', g.id))
          for (const project of store.projects.inNamespace(g.id)) {
            bots.push(...projectBots(project.id))
            const own = store.projectSettings.filesOf(project.id)
            files.exports.push(...own.exports)
            files.metricImages.push(...own.metricImages)
          }
        }
        dropBots(bots)
        store.groupWrites.removeSubtree(group.id)
      })
      hooks.onRemoved?.(files)
    },
  }
}
export type Removals = ReturnType<typeof removals>
