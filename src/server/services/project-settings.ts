import type { ProjectExtras } from '../present/namespaces.js'
import type { Store } from '../store/index.js'
import type { ProjectSettingsRow } from '../store/project-settings.js'
import type { ProjectUpdate } from '../../schema/index.js'

/** Feature access levels by feature (`issues`, `merge_requests`, `builds`...); a missing one is `enabled`. */
export type Features = Record<string, string>

/** A project's settings row, or GitLab's defaults when it has none (a seeded project). */
export function settingsOf(store: Store, projectId: number): ProjectSettingsRow {
  return (
    store.projectSettings.get(projectId) ?? {
      project_id: projectId,
      topics: '[]',
      features: '{}',
      marked_for_deletion_at: null,
      deleting_user_id: null,
      public_builds: 1,
      import_status: 'none',
      mr_default_target_self: 0,
      import_correlation_id: null,
    }
  )
}

/** The access level of one feature (`ProjectFeature`): `enabled` unless set. */
export const featureLevel = (store: Store, projectId: number, feature: string): string =>
  (JSON.parse(settingsOf(store, projectId).features) as Features)[feature] ?? 'enabled'

/**
 * What the project record shows besides its row (present/namespaces.ts `ProjectExtras`);
 * `keep_latest_artifact` only when `admin` (the caller may administer the project).
 */
export function projectExtras(store: Store, projectId: number, admin = false): ProjectExtras {
  const settings = settingsOf(store, projectId)
  const fork = store.forks.member(projectId)
  return {
    topics: JSON.parse(settings.topics) as string[],
    shared_with_groups: store.projectSettings.sharesOf(projectId).flatMap((link) => {
      const group = store.namespaces.get(link.group_id)
      if (!group) return []
      return [
        {
          group_id: group.id,
          group_name: group.name,
          group_full_path: group.full_path,
          group_access_level: link.group_access,
          expires_at: link.expires_at,
        },
      ]
    }),
    marked_for_deletion_at: settings.marked_for_deletion_at,
    features: JSON.parse(settings.features) as Features,
    public_jobs: settings.public_builds === 1,
    ...(admin ? { keep_latest_artifact: store.projectSettings.keepLatestArtifact(projectId) } : {}),
    forks_count: store.forks.countForks(projectId),
    import_status: settings.import_status,
    // `Project#forked?`: a member of a network it is not the root of.
    mr_default_target_self:
      fork && fork.root_project_id !== projectId ? settings.mr_default_target_self === 1 : undefined,
  }
}

/** The feature of each `*_access_level` parameter and of its legacy boolean (`ProjectFeature::FEATURES`). */
const FEATURES = ['issues', 'merge_requests', 'builds', 'repository', 'wiki', 'snippets'] as const
const LEGACY: Record<string, string> = {
  issues_enabled: 'issues',
  merge_requests_enabled: 'merge_requests',
  jobs_enabled: 'builds',
  wiki_enabled: 'wiki',
  snippets_enabled: 'snippets',
}

/** The attributes of `POST`/`PUT /projects` that settings hold. */
export type Attributes = Omit<ProjectUpdate, 'name' | 'path' | 'default_branch'>

/**
 * Features after `attrs`: an `*_access_level` wins over its legacy boolean, which maps to
 * `enabled`/`disabled` (`Projects::CreateService`/`UpdateService` via `ProjectFeature`).
 */
export function featuresAfter(was: Features, attrs: Attributes): Features {
  const out = { ...was }
  const input = attrs as Record<string, unknown>
  for (const [flag, feature] of Object.entries(LEGACY))
    if (typeof input[flag] === 'boolean') out[feature] = input[flag] ? 'enabled' : 'disabled'
  for (const feature of FEATURES) {
    const level = input[`${feature}_access_level`]
    if (typeof level === 'string') out[feature] = level
  }
  return out
}

/**
 * `public_jobs` after `attrs`: `public_jobs` wins over its deprecated name `public_builds`
 * (`translate_params_for_compatibility`, lib/api/projects.rb); undefined when neither is given.
 */
export function publicBuildsOf(attrs: Attributes): number | undefined {
  const value = attrs.public_jobs ?? attrs.public_builds
  return value === undefined ? undefined : value ? 1 : 0
}

/** `topics` (or their old name `tag_list`): stripped, blanks and repeats dropped (`Project#topic_list=`). */
export function topicsOf(attrs: Attributes): string[] | undefined {
  const list = attrs.topics ?? attrs.tag_list
  if (!list) return undefined
  return [...new Set(list.map((t) => t.trim()).filter(Boolean))]
}

/** `mr_default_target_self` after `attrs` as its settings column (1 or 0); undefined when not given. */
export function targetSelfOf(attrs: Attributes): number | undefined {
  return attrs.mr_default_target_self === undefined ? undefined : attrs.mr_default_target_self ? 1 : 0
}
