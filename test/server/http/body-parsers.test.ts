import { buildServer, type GitLabServer } from '../../../src/server/start/build-server.js'

/*
 * The body parsers' hooks (src/server/http/body-parsers.ts): the multipart parser reads parts as
 * streams and never saves request files, so the hook that would delete them is not installed; a
 * request's answer is followed by the request log's hook alone (an async hook costs every request
 * a promise and a microtask turn).
 */
let server: GitLabServer
beforeAll(async () => {
  server = await buildServer({
    seed: { users: [{ username: 'root', token: 'glpat-root-token', admin: true }] },
  })
  await server.app.ready()
})
afterAll(() => server.close())

it('runs one onResponse hook after every route, the request log', () => {
  const routes = server.app.printRoutes({ includeHooks: true, commonPrefix: false })
  const hooks = routes.match(/\(onResponse\) \[[^\]]*\]/g) ?? []
  expect(hooks.length).toBeGreaterThan(100)
  expect(new Set(hooks)).toEqual(new Set(['(onResponse) ["anonymous()"]']))
})

it('runs the same three preHandler hooks on every route: a check of a few routes is on those routes', () => {
  // The edge's, the request turns' and the faults'. The project aliases' administrator check (EE, the
  // default edition) was a fourth, app-wide, that every request ran.
  const routes = server.app.printRoutes({ includeHooks: true, commonPrefix: false })
  expect(routes).toContain('/api/v4/project_aliases')
  const hooks = routes.match(/\(preHandler\) \[[^\]]*\]/g) ?? []
  expect(hooks.length).toBeGreaterThan(100)
  expect(new Set(hooks)).toEqual(new Set(['(preHandler) ["hook()","anonymous()","anonymous()"]']))
})
