import type { TSchema } from '@sinclair/typebox'
import type { ApiContext } from './context.js'

/** Strips TypeBox's symbol keys and our `x-` hints that are not JSON Schema (they stay as extensions). */
const plain = (schema: TSchema): unknown => JSON.parse(JSON.stringify(schema))

/**
 * `GET /api/v4/openapi.json`: an OpenAPI 3.1 document built from the same schemas that parse
 * requests and serialise responses, so that it cannot drift from the server.
 */
export function openapiRoutes(api: ApiContext) {
  const { app, registry, instance } = api
  let cached: unknown
  app.get('/api/v4/openapi.json', async () => {
    if (cached) return cached
    const paths: Record<string, Record<string, unknown>> = {}
    for (const route of registry) {
      const path = route.url.replace(/^\/api\/v4/, '').replace(/:(\w+)/g, '{$1}')
      const parameters: unknown[] = []
      for (const [name, schema] of Object.entries(route.params?.properties ?? {}))
        parameters.push({ name, in: 'path', required: true, schema: plain(schema as TSchema) })
      const required = new Set(route.query?.required ?? [])
      for (const [name, schema] of Object.entries(route.query?.properties ?? {}))
        parameters.push({ name, in: 'query', required: required.has(name), schema: plain(schema as TSchema) })
      const responses: Record<string, unknown> = {}
      for (const [status, schema] of Object.entries(route.response))
        responses[status] = {
          description: route.summary,
          content: { 'application/json': { schema: plain(schema) } },
        }
      paths[path] = {
        ...paths[path],
        [route.method.toString().toLowerCase()]: {
          summary: route.summary,
          parameters,
          ...(route.body
            ? { requestBody: { content: { 'application/json': { schema: plain(route.body) } } } }
            : {}),
          responses,
        },
      }
    }
    cached = {
      openapi: '3.1.0',
      info: {
        title: 'GitLab REST API v4 (gitlab-actions reference server subset)',
        version: instance.version,
      },
      servers: [{ url: `${instance.baseUrl}/api/v4` }],
      components: {
        securitySchemes: { privateToken: { type: 'apiKey', in: 'header', name: 'PRIVATE-TOKEN' } },
      },
      security: [{ privateToken: [] }],
      paths,
    }
    return cached
  })
}
