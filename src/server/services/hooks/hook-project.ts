import type { HookProject } from '../../present/hook-payloads.js'
import type { Store } from '../../store/index.js'
import type { ProjectRow } from '../../store/projects.js'
import { namespaceNames } from '../groups.js'

/** What a webhook payload says of a project: its namespace's name and `full_name` (`acme / app`). */
export function hookProject(store: Store, row: ProjectRow): HookProject {
  const names = namespaceNames(store, row.namespace_id)
  return { row, namespaceName: names.at(-1) ?? '', fullName: [...names, row.name].join(' / ') }
}
