import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Instruments } from '../domain/instruments.js'
import type { Instance } from '../present/context.js'
import type { Access } from '../services/access.js'
import type { Services } from '../services/index.js'
import { emulatorFormRoutes } from './emulator/forms.js'
import { emulatorPage } from './emulator/page.js'
import type { Html } from './html.js'
import { issueListPage, issuePage } from './issue-pages.js'
import type { PageContext } from './layout.js'
import { exploreProjectsPage, groupPage, userPage } from './namespace-pages.js'
import { jobPage, pipelineListPage, pipelinePage } from './pipeline-pages.js'
import { milestonePage } from './milestone-page.js'
import { projectPage } from './project-pages.js'
import { sendRawFile } from './raw-file.js'
import { rawTarget, repositoryPage } from './repository-routes.js'
import { ifAllowed, notFoundPage, pageContext, renderPage, sendPage } from './respond.js'
import { signInRoutes } from './sign-in.js'
import { downloadExport, transferPage } from './transfer-page.js'

/** What the pages read through: the instance, the access rules and the services (never the store). */
export interface PagesState {
  instance: Instance
  access: Access
  services: Services
  /** The request log and the faults, for the emulator page. */
  instruments: Instruments
}

type Query = Record<string, unknown>
type Render = (ctx: PageContext, query: Query) => Html

const ID = /^\d{1,15}$/

/**
 * The page a path names, GitLab's routes (`config/routes/project.rb`): `-/` parts a project's (or
 * group's) full path from the resource, so `/<group>/<subgroup>/<project>/-/issues/<iid>` needs no
 * table of namespaces; a path without `-/` is a project, else a user (one segment) or a group.
 */
function resolve(path: string, state: PagesState): Render | undefined {
  const { services } = state
  const at = path.indexOf('/-/')
  if (at < 0) {
    if (path.endsWith('/edit')) return (ctx) => transferPage(ctx, services, path.slice(0, -'/edit'.length))
    return (ctx) =>
      ifAllowed(() => projectPage(ctx, services, path)) ??
      (path.includes('/') ? undefined : ifAllowed(() => userPage(ctx, services, path))) ??
      groupPage(ctx, services, path)
  }
  const project = path.slice(0, at)
  const [kind, id, ...more] = path.slice(at + 3).split('/')
  const repository = repositoryPage(
    services,
    project,
    kind!,
    [id, ...more].filter((s) => s !== undefined).join('/'),
  )
  if (repository) return repository
  if (more.length > 0 || (id !== undefined && !ID.test(id))) return undefined
  if (kind === 'issues')
    return id === undefined
      ? (ctx, query) => issueListPage(ctx, state, project, query)
      : (ctx, query) => issuePage(ctx, state, project, Number(id), query)
  if (kind === 'pipelines')
    return id === undefined
      ? (ctx, query) => pipelineListPage(ctx, services, project, query)
      : (ctx) => pipelinePage(ctx, services, project, Number(id))
  if (kind === 'jobs' && id !== undefined) return (ctx) => jobPage(ctx, services, project, Number(id))
  if (kind === 'milestones' && id !== undefined)
    return (ctx) => milestonePage(ctx, state, project, Number(id))
  return undefined
}

/**
 * The HTML pages behind the `web_url`s the API hands out, the sign-in form and the emulator's page
 * (`/-/emulator`). Registered after the API: a wildcard route takes only paths no route serves,
 * and hands `/api/...` back to the API's JSON 404. Pages read as the visitor their session cookie
 * names (src/server/services/page-sessions.ts), never as a token's owner.
 */
export function mountPages(app: FastifyInstance, state: PagesState): void {
  const { instance, services, instruments } = state
  const sessions = services.pageSessions
  const serve = (req: FastifyRequest, reply: FastifyReply, render: Render | undefined) => {
    const ctx = pageContext(req, instance, sessions)
    if (!render) return sendPage(reply, 404, notFoundPage(ctx))
    return renderPage(reply, ctx, () => render(ctx, req.query as Query))
  }
  signInRoutes(app, instance, sessions)
  emulatorFormRoutes(app, instance, services, instruments)
  app.get('/-/emulator', async (req, reply) =>
    serve(req, reply, (ctx, query) => emulatorPage({ ctx, services, instruments, query })),
  )
  app.get('/explore/projects', async (req, reply) =>
    serve(req, reply, (ctx, query) => exploreProjectsPage(ctx, services, query)),
  )
  app.get('/groups/*', async (req, reply) =>
    serve(req, reply, (ctx) => groupPage(ctx, services, wildcard(req))),
  )
  app.get('/*', async (req, reply) => {
    const path = wildcard(req)
    if (path === 'api' || path.startsWith('api/')) return reply.callNotFound()
    if (path === '' || path === 'explore') return reply.redirect('/explore/projects', 302)
    if (path.endsWith('/download_export'))
      return downloadExport(
        reply,
        pageContext(req, instance, sessions),
        services,
        path.slice(0, -'/download_export'.length),
      )
    const raw = rawTarget(path)
    if (raw) return sendRawFile(reply, pageContext(req, instance, sessions), services, raw.project, raw.rest)
    return serve(req, reply, resolve(path, state))
  })
}

/** The path a wildcard route matched, without slashes at either end. */
const wildcard = (req: FastifyRequest) =>
  ((req.params as { '*'?: string })['*'] ?? '').replace(/^\/+|\/+$/g, '')
