import { CiLintCreate, CiLintQuery, CiLintResult } from '../../schema/index.js'
import type { PipelineService } from '../services/pipelines.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

/** The CI Lint API (`lib/api/lint.rb`): both answer 200, a configuration GitLab refuses with `valid: false`. */
export function ciLintRoutes(api: ApiContext, pipelines: PipelineService): void {
  const { route } = api
  const lint = api.services.ciLint

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/ci/lint',
      summary: "Lint a CI/CD configuration in the project's context (Developer)",
      pathParams: IdPath,
      input: CiLintCreate,
      response: { 200: CiLintResult },
    },
    async (h) => {
      const project = pipelines.project(h.actor, h.path.id)
      return h.reply.code(200).send(await lint.lintContent(h.actor, project, h.params))
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/ci/lint',
      summary: "Lint the project's .gitlab-ci.yml at a commit, branch or tag",
      pathParams: IdPath,
      input: CiLintQuery,
      response: { 200: CiLintResult },
    },
    (h) => lint.lintProject(h.actor, pipelines.project(h.actor, h.path.id), h.params),
  )
}
