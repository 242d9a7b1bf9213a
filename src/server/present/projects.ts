import type { BasicProjectDetails, Project, ProjectDetails } from '../../schema/index.js'

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

/** `ProjectDetails` (lib/api/entities/project_details.rb): `BasicProjectDetails` and the fork source, if shown. */
export function projectDetails(full: Project): ProjectDetails {
  const { forked_from_project } = full
  return { ...basicProjectDetails(full), ...(forked_from_project ? { forked_from_project } : {}) }
}
