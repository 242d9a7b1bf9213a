import type { Store } from '../store/index.js'

/**
 * The labels and milestones an import found or made by title, and the project it imports into, kept
 * for one batch of lines (one transaction), as `Gitlab::ImportExport::Base::ObjectBuilder` keeps the
 * objects it found or created in its LRU cache for the whole import
 * (`lib/gitlab/import_export/base/object_builder.rb`). Without it every issue line looked each of
 * its labels and its milestone up through the project's groups again (a recursive query and a read
 * of the project each: a sixth of a 100,000-issue import's CPU time).
 *
 * Nothing else writes while a transaction runs, so within a batch a title keeps its answer; between
 * batches (an await, where API requests run) the batch starts with `clear()`. A line whose savepoint
 * rolls back takes the labels and milestones it made with it: `clear()` then too.
 */
export function importLookups(store: Store, projectId: number) {
  let project: { id: number; namespace_id: number } | undefined
  const labels = new Map<string, number>()
  const milestones = new Map<string, number>()
  const cached = (map: Map<string, number>, title: string, find: () => number) => {
    let id = map.get(title)
    if (id === undefined) map.set(title, (id = find()))
    return id
  }
  return {
    /** The project being imported into, for the labels and milestones of its groups. */
    target: () => (project ??= store.projects.get(projectId) ?? { id: projectId, namespace_id: -1 }),
    /** The label id of `title`, found or made by `find` on the batch's first ask. */
    label: (title: string, find: () => number) => cached(labels, title, find),
    /** The milestone id of `title`, found or made by `find` on the batch's first ask. */
    milestone: (title: string, find: () => number) => cached(milestones, title, find),
    /** Forgets everything: a batch starts, or a line's savepoint rolled back. */
    clear() {
      project = undefined
      labels.clear()
      milestones.clear()
    },
  }
}

export type ImportLookups = ReturnType<typeof importLookups>
