import { JobListQuery, PipelineListQuery, type Job } from '../../schema/index.js'
import { parseParams } from '../grape/params.js'
import type { Services } from '../services/index.js'
import { html, type Html } from './html.js'
import { layout, pager, statusBadge, table, type PageContext } from './layout.js'
import { pageNumber, pathOf } from './links.js'
import { projectCrumbs, projectNav } from './project-pages.js'
import { plainTrace } from '../ci/job-script.js'

const PER_PAGE = 20
/** Jobs a pipeline page shows: GitLab's pipeline graph shows them all; 100 covers any emulated pipeline. */
const MAX_JOBS = 100

/** `/<full_path>/-/pipelines`: a project's pipelines, newest first (`Projects::PipelinesController#index`). */
export function pipelineListPage(
  ctx: PageContext,
  services: Services,
  fullPath: string,
  query: Record<string, unknown>,
): Html {
  const { actor } = ctx.visitor
  const p = services.projects.get(actor, fullPath)
  const project = services.pipelines.project(actor, fullPath)
  const page = pageNumber(query.page)
  const list = services.pipelines.list(
    actor,
    project,
    parseParams(PipelineListQuery, { page: String(page), per_page: String(PER_PAGE) }),
  )
  const base = pathOf(p.path_with_namespace, 'pipelines')
  return layout(ctx, {
    title: 'Pipelines',
    crumbs: projectCrumbs(p, [{ text: 'Pipelines', href: base }]),
    body: html`${projectNav(p)}
    ${
      list.items.length === 0
        ? html`<p>No pipelines yet.</p>`
        : table(
            ['Pipeline', 'Status', 'Ref', 'Created'],
            list.items.map((pl) => [
              html`<a href="${pathOf(p.path_with_namespace, 'pipelines', pl.id)}">#${pl.id}</a>`,
              statusBadge(pl.status),
              html`<code>${pl.ref}</code>`,
              html`<time datetime="${pl.created_at}">${pl.created_at}</time>`,
            ]),
          )
    }
    ${pager('Pages', page, page * PER_PAGE < list.total, (n) => `${base}?page=${n}`)}`,
  })
}

/** Jobs grouped by stage, stages in the order their first job runs (the jobs come newest first). */
function byStage(jobs: Job[]): [string, Job[]][] {
  const stages = new Map<string, Job[]>()
  for (const job of [...jobs].sort((a, b) => a.id - b.id)) {
    const list = stages.get(job.stage) ?? []
    list.push(job)
    stages.set(job.stage, list)
  }
  return [...stages]
}

/** `/<full_path>/-/pipelines/<id>`: a pipeline and its jobs by stage (`Projects::PipelinesController#show`). */
export function pipelinePage(ctx: PageContext, services: Services, fullPath: string, id: number): Html {
  const { actor } = ctx.visitor
  const p = services.projects.get(actor, fullPath)
  const project = services.pipelines.project(actor, fullPath)
  const pipeline = services.pipelines.get(actor, project, id)
  const jobs = services.pipelines.jobs(
    actor,
    project,
    id,
    parseParams(JobListQuery, { per_page: String(MAX_JOBS) }),
  )
  const base = pathOf(p.path_with_namespace, 'pipelines')
  return layout(ctx, {
    title: `Pipeline #${pipeline.id}`,
    crumbs: projectCrumbs(p, [
      { text: 'Pipelines', href: base },
      { text: `#${pipeline.id}`, href: pathOf(p.path_with_namespace, 'pipelines', pipeline.id) },
    ]),
    body: html`${projectNav(p)}
      <dl class="facts">
        <dt>Status</dt>
        <dd>${statusBadge(pipeline.status)}</dd>
        <dt>Ref</dt>
        <dd><code>${pipeline.ref}</code></dd>
        <dt>Commit</dt>
        <dd>
          <a href="${pathOf(p.path_with_namespace, 'commit', pipeline.sha)}"
            ><code>${pipeline.sha.slice(0, 8)}</code></a
          >
        </dd>
        <dt>Source</dt>
        <dd>${pipeline.source}</dd>
        ${
          pipeline.user
            ? html`<dt>Triggered by</dt>
                <dd>${pipeline.user.name}</dd>`
            : null
        }
        <dt>Created</dt>
        <dd><time datetime="${pipeline.created_at}">${pipeline.created_at}</time></dd>
        ${
          pipeline.duration === null
            ? null
            : html`<dt>Duration</dt>
                <dd>${pipeline.duration} s</dd>`
        }
      </dl>
      <section aria-labelledby="jobs">
        <h2 id="jobs">Jobs</h2>
        ${
          jobs.items.length === 0
            ? html`<p class="muted">This pipeline has no jobs.</p>`
            : byStage(jobs.items).map(
                ([stage, list]) =>
                  html`<h3>Stage ${stage}</h3>
                    <ul>
                      ${list.map((j) => html`<li><a href="${pathOf(p.path_with_namespace, 'jobs', j.id)}">${j.name}</a> ${statusBadge(j.status)}</li>`)}
                    </ul>`,
              )
        }
        ${jobs.total > jobs.items.length ? html`<p class="muted">${jobs.total - jobs.items.length} more jobs not shown.</p>` : null}
      </section>`,
  })
}

/** `/<full_path>/-/jobs/<id>`: a job's status and its log (`Projects::JobsController#show`). */
export function jobPage(ctx: PageContext, services: Services, fullPath: string, id: number): Html {
  const { actor } = ctx.visitor
  const p = services.projects.get(actor, fullPath)
  const project = services.pipelines.project(actor, fullPath)
  const job = services.pipelines.job(project, id)
  const log = plainTrace(services.jobs.trace(actor, fullPath, id).text)
  const pipelineHref = pathOf(p.path_with_namespace, 'pipelines', job.pipeline_id)
  return layout(ctx, {
    title: `Job ${job.name}`,
    crumbs: projectCrumbs(p, [
      { text: 'Pipelines', href: pathOf(p.path_with_namespace, 'pipelines') },
      { text: `#${job.pipeline_id}`, href: pipelineHref },
      { text: job.name, href: pathOf(p.path_with_namespace, 'jobs', job.id) },
    ]),
    body: html`${projectNav(p)}
      <dl class="facts">
        <dt>Status</dt>
        <dd>${statusBadge(job.status)}</dd>
        <dt>Job</dt>
        <dd>#${job.id}</dd>
        <dt>Stage</dt>
        <dd>${job.stage}</dd>
        <dt>Pipeline</dt>
        <dd><a href="${pipelineHref}">#${job.pipeline_id}</a></dd>
        <dt>Ref</dt>
        <dd><code>${job.ref}</code></dd>
        <dt>Commit</dt>
        <dd>
          <a href="${pathOf(p.path_with_namespace, 'commit', job.pipeline.sha)}"
            ><code>${job.pipeline.sha.slice(0, 8)}</code></a
          >
        </dd>
        ${
          job.failure_reason
            ? html`<dt>Failure reason</dt>
                <dd>${job.failure_reason}</dd>`
            : null
        }
        <dt>Created</dt>
        <dd><time datetime="${job.created_at}">${job.created_at}</time></dd>
        ${
          job.started_at
            ? html`<dt>Started</dt>
                <dd><time datetime="${job.started_at}">${job.started_at}</time></dd>`
            : null
        }
        ${
          job.finished_at
            ? html`<dt>Finished</dt>
                <dd><time datetime="${job.finished_at}">${job.finished_at}</time></dd>`
            : null
        }
      </dl>
      <section aria-labelledby="trace">
        <h2 id="trace">Log</h2>
        ${log === '' ? html`<p class="muted">This job has no log yet.</p>` : html`<pre class="log">${log}</pre>`}
      </section>`,
  })
}
