import type { BasicProjectDetails, Project } from '../../schema/index.js'
import type { Actor, Access } from '../services/access.js'
import { Level } from '../services/access.js'
import type { Store } from '../store/index.js'
import type { ProjectRow } from '../store/projects.js'
import type { Instance } from './context.js'
import { namespaceNames, presentProject } from './namespaces.js'

/**
 * A project as GitLab presents it to `actor`: `ProjectWithAccess` (with `permissions`) to a
 * signed-in caller, `BasicProjectDetails`' fields and the rest to anonymous ones (lib/api/projects.rb
 * `present_projects` and `get ":id"`).
 */
export function projectFor(
  deps: { store: Store; access: Access; instance: Instance },
  actor: Actor,
  project: ProjectRow,
): Project {
  const { store, access, instance } = deps
  const ns = store.namespaces.get(project.namespace_id)
  if (!ns) throw new Error(`project ${project.id} has no namespace`)
  const direct = actor.direct(store, `project:${project.id}`)
  const group =
    ns.kind === 'group' ? access.groupLevel(actor, ns) : ns.owner_id === actor.id ? Level.owner : 0
  const permissions = actor.user
    ? {
        project_access: direct ? { access_level: direct, notification_level: 3 } : null,
        group_access: group ? { access_level: group, notification_level: 3 } : null,
      }
    : undefined
  const fullName = [...namespaceNames(store, ns.id), project.name].join(' / ')
  return presentProject(
    project,
    ns,
    fullName,
    store.projects.openIssuesCount(project.id),
    instance,
    permissions,
  )
}

/** `BasicProjectDetails` (lib/api/entities/basic_project_details.rb): what `simple=true` lists. */
export function basicProjectDetails(full: Project): BasicProjectDetails {
  const { id, description, name, name_with_namespace, path, path_with_namespace, created_at } = full
  const { default_branch, tag_list, topics, ssh_url_to_repo, http_url_to_repo, web_url } = full
  const { readme_url, avatar_url, forks_count, star_count, last_activity_at, namespace } = full
  return {
    id,
    description,
    name,
    name_with_namespace,
    path,
    path_with_namespace,
    created_at,
    default_branch,
    tag_list,
    topics,
    ssh_url_to_repo,
    http_url_to_repo,
    web_url,
    readme_url,
    avatar_url,
    forks_count,
    star_count,
    last_activity_at,
    namespace,
  }
}

const projectSortKey: Record<string, (p: ProjectRow) => string | number> = {
  id: (p) => p.id,
  name: (p) => p.name.toLowerCase(),
  path: (p) => p.path.toLowerCase(),
  created_at: (p) => p.created_at,
  updated_at: (p) => p.last_activity_at,
  last_activity_at: (p) => p.last_activity_at,
}

/** GitLab's `reorder_projects`: by `order_by` in `sort` direction, ties broken by id the same way. */
export function sortProjects(rows: ProjectRow[], orderBy = 'created_at', sort = 'desc'): ProjectRow[] {
  const key = projectSortKey[orderBy] ?? projectSortKey.created_at!
  const dir = sort === 'asc' ? 1 : -1
  return rows.sort((a, b) => {
    const x = key(a)
    const y = key(b)
    return (x < y ? -1 : x > y ? 1 : 0) * dir || (a.id - b.id) * dir
  })
}
