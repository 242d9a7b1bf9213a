import type {
  BasicGroupDetails,
  BasicProjectDetails,
  Group,
  GroupDetail,
  NamespaceBasic,
  Project,
} from '../../schema/index.js'
import type { GroupLinkRow } from '../store/group-writes.js'
import type { NamespaceRow } from '../store/namespaces.js'
import type { ProjectRow } from '../store/projects.js'
import { apiUrl, type Instance } from './context.js'

export function presentNamespace(ns: NamespaceRow, instance: Instance): NamespaceBasic {
  return {
    id: ns.id,
    name: ns.name,
    path: ns.path,
    kind: ns.kind,
    full_path: ns.full_path,
    parent_id: ns.parent_id,
    avatar_url: null,
    web_url:
      ns.kind === 'group'
        ? `${instance.baseUrl}/groups/${ns.full_path}`
        : `${instance.baseUrl}/${ns.full_path}`,
  }
}

/** `Entities::BasicGroupDetails`: a group's id, name and page. */
export function basicGroupDetails(group: NamespaceRow, instance: Instance): BasicGroupDetails {
  return { id: group.id, web_url: `${instance.baseUrl}/groups/${group.full_path}`, name: group.name }
}

/**
 * `GET /groups/:id`. `fullName` is the names of the group and its ancestors joined by " / ";
 * `markedOn` the day it was marked for deletion, left out where the release does not show it.
 */
export function presentGroup(
  ns: NamespaceRow,
  fullName: string,
  instance: Instance,
  markedOn?: string | null,
): Group {
  return {
    id: ns.id,
    web_url: `${instance.baseUrl}/groups/${ns.full_path}`,
    name: ns.name,
    path: ns.path,
    description: ns.description,
    visibility: ns.visibility as Group['visibility'],
    full_name: fullName,
    full_path: ns.full_path,
    created_at: ns.created_at,
    parent_id: ns.parent_id,
    avatar_url: null,
    ...(markedOn === undefined ? {} : { marked_for_deletion_on: markedOn }),
  }
}

/** `Entities::GroupDetail`: the group and the groups it is shared with, oldest share first. */
export function presentGroupDetail(group: Group, links: readonly GroupLinkRow[]): GroupDetail {
  return {
    ...group,
    shared_with_groups: links.map((l) => ({
      group_id: l.shared_with_group_id,
      group_name: l.name,
      group_full_path: l.full_path,
      group_access_level: l.group_access,
      expires_at: l.expires_at,
    })),
  }
}

/** What a project record shows besides its row: topics, shares, a delayed deletion (a day, as GitLab's `date` column). */
export interface ProjectExtras {
  topics: string[]
  shared_with_groups: Project['shared_with_groups']
  marked_for_deletion_at: string | null
  /** Access level by feature (`issues`, `repository`, `merge_requests`, `wiki`, `builds`, `snippets`). */
  features: Record<string, string>
  /** `Project#public_builds`: whoever reads the project reads its jobs. */
  public_jobs: boolean
  /** `keep_latest_artifact`, for a caller who may administer the project (`admin_project`); else undefined. */
  keep_latest_artifact?: boolean
  /** The projects forked from this one (`Projects::ForksCountService`). */
  forks_count: number
  /** `finished` for a project made as a fork (its repository copied from the source), `none` otherwise. */
  import_status: string
  /** Whether a fork's merge requests target the fork itself; undefined for a project that is no fork. */
  mr_default_target_self: boolean | undefined
}

/**
 * The legacy `*_enabled` booleans and the `*_access_level`s, in the entity's order; a feature is
 * enabled unless `disabled` (lib/api/entities/project.rb).
 */
function featureFields(features: Record<string, string>) {
  const level = (feature: string) => features[feature] ?? 'enabled'
  const on = (feature: string) => level(feature) !== 'disabled'
  return {
    issues_enabled: on('issues'),
    merge_requests_enabled: on('merge_requests'),
    wiki_enabled: on('wiki'),
    jobs_enabled: on('builds'),
    snippets_enabled: on('snippets'),
    issues_access_level: level('issues'),
    repository_access_level: level('repository'),
    merge_requests_access_level: level('merge_requests'),
    wiki_access_level: level('wiki'),
    builds_access_level: level('builds'),
    snippets_access_level: level('snippets'),
  }
}

/** `GET /projects/:id`; `permissions` only where GitLab shows it (single reads by a signed-in user). */
export function presentProject(
  p: ProjectRow,
  ns: NamespaceRow,
  nameWithNamespace: string,
  openIssues: number,
  instance: Instance,
  extras: ProjectExtras,
  permissions?: Project['permissions'],
  forkedFrom?: BasicProjectDetails,
): Project {
  const web = `${instance.baseUrl}/${p.full_path}`
  const self = `${apiUrl(instance)}/projects/${p.id}`
  const host = new URL(instance.baseUrl).host
  return {
    id: p.id,
    description: p.description,
    name: p.name,
    name_with_namespace: nameWithNamespace,
    path: p.path,
    path_with_namespace: p.full_path,
    created_at: p.created_at,
    default_branch: p.default_branch,
    tag_list: extras.topics,
    topics: extras.topics,
    ssh_url_to_repo: `git@${host.replace(/:\d+$/, '')}:${p.full_path}.git`,
    http_url_to_repo: `${web}.git`,
    web_url: web,
    readme_url: null,
    avatar_url: null,
    forks_count: extras.forks_count,
    star_count: 0,
    last_activity_at: p.last_activity_at,
    namespace: presentNamespace(ns, instance),
    _links: {
      self,
      issues: `${self}/issues`,
      merge_requests: `${self}/merge_requests`,
      repo_branches: `${self}/repository/branches`,
      labels: `${self}/labels`,
      events: `${self}/events`,
      members: `${self}/members`,
      cluster_agents: `${self}/cluster_agents`,
    },
    archived: p.archived === 1,
    visibility: p.visibility as Project['visibility'],
    ...featureFields(extras.features),
    open_issues_count: openIssues,
    creator_id: p.creator_id ?? 0,
    // Exposed for forks only (`expose :mr_default_target_self, if: ->(project) { project.forked? }`).
    ...(extras.mr_default_target_self === undefined
      ? {}
      : { mr_default_target_self: extras.mr_default_target_self }),
    // Exposed only when the caller can read the source (`Entities::Project`, `forked_from_project`).
    ...(forkedFrom ? { forked_from_project: forkedFrom } : {}),
    import_status: extras.import_status,
    public_jobs: extras.public_jobs,
    ...(extras.keep_latest_artifact === undefined
      ? {}
      : { keep_latest_artifact: extras.keep_latest_artifact }),
    shared_with_groups: extras.shared_with_groups,
    marked_for_deletion_at: extras.marked_for_deletion_at,
    marked_for_deletion_on: extras.marked_for_deletion_at,
    ...(permissions ? { permissions } : {}),
  }
}
