import type { ApiContext } from './context.js'

/** GitLab's health checks (`/-/health`, `/-/readiness`, `/-/liveness`) answer as GitLab's do. */
export function healthRoutes(api: ApiContext) {
  const { app } = api
  const { health } = api.services
  app.get('/-/health', async (_req, reply) => reply.type('text/plain; charset=utf-8').send('GitLab OK'))
  app.get('/-/liveness', async () => ({ status: 'ok' }))
  app.get('/-/readiness', async (_req, reply) => {
    const ok = health.databaseReady()
    const body = {
      status: ok ? 'ok' : 'failed',
      master_check: [{ status: ok ? 'ok' : 'failed' }],
      db_check: [{ status: ok ? 'ok' : 'failed' }],
    }
    return reply.code(ok ? 200 : 503).send(body)
  })
}
