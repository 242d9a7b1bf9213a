import type { Store } from '../store/index.js'
import type { ProjectRow } from '../store/projects.js'
import { Level, type Access, type Actor } from './access.js'
import { JobTokenActor } from './job-tokens.js'
import { settingsOf, type Features } from './project-settings.js'

/**
 * What a caller who may read the project may do with its CI: read pipelines, and jobs (their traces and
 * artifacts); `builds` and `pipelines` say whether the features leave the build and the pipeline abilities
 * to the caller at all (the writes' roles come on top).
 */
export interface CiAbilities {
  readPipeline: boolean
  readBuild: boolean
  /** No `builds_disabled | repository_disabled`: the build abilities, `cancel_build` among them, may be had. */
  builds: boolean
  /** No `(builds_disabled & ~internal_builds_disabled) | repository_disabled`: likewise the pipeline abilities. */
  pipelines: boolean
}

/**
 * `ProjectPolicy`'s `read_pipeline` and `read_build` (`app/policies/project_policy.rb`) for a caller who
 * already reads the project (`access.project`):
 * - `read_build`: Reporter+ (admins as owners), or anyone when the project has `public_builds`
 *   (`public_jobs`, "Project-based pipeline visibility");
 * - `read_pipeline`: Reporter+, `public_access` (everyone in a public project, signed-in users but external
 *   ones in an internal one), or `public_builds & guest_access` (any member of a private project);
 * - the builds feature (`builds_disabled`): `disabled` prevents the build abilities only (GitLab keeps the
 *   pipeline ones for external CI, `internal_builds_disabled`), `private` prevents both for those below Guest
 *   (`ProjectFeature#team_access?`; admins pass); the repository feature likewise prevents both
 *   (`repository_disabled`; `private` asks Reporter in a private project,
 *   `PRIVATE_FEATURES_MIN_ACCESS_LEVEL_FOR_PRIVATE_PROJECT`).
 * A CI/CD job token reads its own project's CI (the job's own pipeline; our choice, as its user needs
 * Developer to have run it).
 */
export function ciAbilities(store: Store, access: Access, actor: Actor, project: ProjectRow): CiAbilities {
  if (actor instanceof JobTokenActor && actor.job.projectId === project.id)
    return { readPipeline: true, readBuild: true, builds: true, pipelines: true }
  const level = access.projectLevel(actor, project)
  const settings = settingsOf(store, project.id)
  const features = JSON.parse(settings.features) as Features
  const featureOpen = (feature: string, privateLevel: number) => {
    const set = features[feature] ?? 'enabled'
    if (set === 'disabled') return false
    return set !== 'private' || actor.admin || level >= privateLevel
  }
  const repository = featureOpen('repository', repositoryLevel(project))
  const builds = features.builds ?? 'enabled'
  const buildsOpen = featureOpen('builds', Level.guest)
  const reporter = actor.admin || level >= Level.reporter
  const publicBuilds = settings.public_builds === 1
  const internalAccess = project.visibility === 'internal' && actor.user !== null && !actor.external(store)
  const publicAccess = project.visibility === 'public' || internalAccess
  const guestAccess =
    level >= Level.guest || (actor.user !== null && project.visibility === 'public') || internalAccess
  const buildAbilities = repository && buildsOpen
  const pipelineAbilities = repository && (buildsOpen || builds === 'disabled')
  return {
    readBuild: buildAbilities && (reporter || publicBuilds),
    readPipeline: pipelineAbilities && (reporter || publicAccess || (publicBuilds && guestAccess)),
    builds: buildAbilities,
    pipelines: pipelineAbilities,
  }
}

/** The level the repository feature asks when `private` (`PRIVATE_FEATURES_MIN_ACCESS_LEVEL_FOR_PRIVATE_PROJECT`). */
const repositoryLevel = (project: ProjectRow) =>
  project.visibility === 'private' ? Level.reporter : Level.guest

/**
 * `download_code` (`ProjectPolicy`): whoever reads the project, Reporter and up in a private one, unless
 * the repository feature is disabled, or `private` and the caller below its level (admins pass).
 */
export function downloadsCode(store: Store, access: Access, actor: Actor, project: ProjectRow): boolean {
  if (!access.canReadProject(actor, project)) return false
  const level = access.projectLevel(actor, project)
  if (project.visibility === 'private' && !actor.admin && level < Level.reporter) return false
  const set = (JSON.parse(settingsOf(store, project.id).features) as Features).repository ?? 'enabled'
  if (set === 'disabled') return false
  return set !== 'private' || actor.admin || level >= repositoryLevel(project)
}

/**
 * `read_pipeline` on a pipeline itself (`app/policies/ci/pipeline_policy.rb`): the project's
 * `read_pipeline`, and `read_build` too, which `Ci::PipelinePolicy` asks of whoever reads one.
 */
export function readsPipelineRecords(
  store: Store,
  access: Access,
  actor: Actor,
  project: ProjectRow,
): boolean {
  const can = ciAbilities(store, access, actor, project)
  return can.readPipeline && can.readBuild
}
