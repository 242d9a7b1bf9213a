import type { TSchema } from '@sinclair/typebox'
import { ErrorBody } from '../../schema/index.js'
import { Seed } from '../../schema/seed.js'
import type { ApiContext } from './context.js'
import type { RouteDoc } from './define.js'
import { instrumentPaths } from './emulator-instrument-docs.js'
import { clockPaths } from './emulator-clock-docs.js'
import { snapshotPaths } from './emulator-snapshot-docs.js'
import { pipelineControlPaths } from './emulator-pipeline-docs.js'

/** Strips TypeBox's symbol keys and our `x-` hints that are not JSON Schema (they stay as extensions). */
const plain = (schema: TSchema): unknown => JSON.parse(JSON.stringify(schema))

const json = (schema: unknown) => ({ 'application/json': { schema } })
const errorRef = { $ref: '#/components/schemas/Error' }

/**
 * GitLab's refusals (lib/api/helpers.rb `render_api_error!`, Grape's validation errors): a
 * `{"message": ...}` body, or `{"error": ...}` for parameter validation and a few others.
 */
const ERRORS: Record<number, { description: string; example: unknown }> = {
  400: {
    description: 'Bad request: a parameter is missing or invalid',
    example: { error: 'title is missing' },
  },
  401: { description: 'No valid token where one is needed', example: { message: '401 Unauthorized' } },
  403: { description: 'Not allowed for this caller', example: { message: '403 Forbidden' } },
  404: {
    description: 'Missing, or hidden from this caller',
    example: { message: '404 Project Not Found' },
  },
  405: {
    description: 'Not available this way',
    example: { error: 'Keyset pagination is not yet available for this type of request' },
  },
  409: { description: 'Conflict', example: { message: 'Duplicated issue' } },
  410: { description: 'Gone in this release', example: { message: '410 Gone' } },
  412: { description: 'Precondition failed', example: { message: '412 Precondition Failed' } },
  413: { description: 'Too large', example: { message: '413 Request Entity Too Large' } },
  422: { description: 'Unprocessable', example: { message: 'Unprocessable Entity' } },
  429: {
    description: 'Rate limited',
    example: { message: { error: 'This endpoint has been requested too many times. Try again later.' } },
  },
}
/** What any route may answer: bad parameters, a bad token, a refusal, a missing or hidden record. */
const COMMON_ERRORS = [400, 401, 403, 404]

/** `getProjectsIdIssuesIssueIid`: the method and the path's words, placeholders as words too. */
function operationId(method: string, path: string): string {
  const words = path
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
  return `${method.toLowerCase()}${words.join('')}`
}

/**
 * The emulator's own controls (src/server/routes/emulator.ts), outside `/api/v4`, administrators
 * only; the seed body is docs/seed.md's format, as YAML or JSON.
 */
function emulatorPaths(baseUrl: string): Record<string, unknown> {
  const servers = [{ url: baseUrl }]
  const message = { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] }
  const refusals = {
    '401': { description: ERRORS[401]!.description, content: json(errorRef) },
    '403': { description: 'Not an administrator', content: json(errorRef) },
  }
  return {
    '/-/emulator/reset': {
      servers,
      post: {
        operationId: 'postEmulatorReset',
        summary: 'Back to the start-up seed (administrators)',
        tags: ['emulator'],
        responses: {
          '200': { description: 'Reset', content: json({ ...message, example: { message: 'reset' } }) },
          ...refusals,
        },
      },
    },
    '/-/emulator/seed': {
      servers,
      post: {
        operationId: 'postEmulatorSeed',
        summary: 'Add a seed to what exists, whole or not at all (administrators)',
        description:
          'YAML or JSON (docs/seed.md). Existing users, groups and projects count as listed: a project ' +
          'may go in an existing namespace, an existing project may get members, labels, milestones ' +
          'and issues (not one with the title of an issue it has: 409). A form-encoded body that is not a ' +
          'form is read as YAML.',
        tags: ['emulator'],
        requestBody: {
          required: true,
          content: {
            'application/yaml': { schema: { $ref: '#/components/schemas/Seed' } },
            'application/json': { schema: { $ref: '#/components/schemas/Seed' } },
          },
        },
        responses: {
          '201': { description: 'Seeded', content: json({ ...message, example: { message: 'seeded' } }) },
          '400': {
            description: 'The seed is invalid; nothing changed',
            content: json({
              ...errorRef,
              example: { message: 'request body: projects[0].members.dave: unknown user dave' },
            }),
          },
          '409': {
            description:
              'The seed names an issue its project has already (a seed posted twice); nothing changed',
            content: json({
              ...errorRef,
              example: {
                message:
                  'request body: projects[0].issues[0].title: demo/app already has this issue (#1 "Crash on start"); a seed adds, it does not update (POST /-/emulator/reset first to start over)',
              },
            }),
          },
          ...refusals,
        },
      },
    },
    ...instrumentPaths(servers, refusals),
    ...clockPaths(servers, refusals),
    ...snapshotPaths(servers, refusals),
    ...pipelineControlPaths(servers, refusals),
  }
}

/** One operation of the document. */
function operation(route: RouteDoc, path: string, jobToken: boolean): Record<string, unknown> {
  const parameters: unknown[] = []
  const declared = new Set(Object.keys(route.params?.properties ?? {}))
  for (const [name, schema] of Object.entries(route.params?.properties ?? {}))
    parameters.push({ name, in: 'path', required: true, schema: plain(schema as TSchema) })
  // A placeholder only the document names (the ref of `/ref/{ref}/trigger/pipeline`) is a string.
  for (const [, name] of path.matchAll(/\{(\w+)\}/g))
    if (name && !declared.has(name))
      parameters.push({ name, in: 'path', required: true, schema: { type: 'string' } })
  const required = new Set(route.query?.required ?? [])
  for (const [name, schema] of Object.entries(route.query?.properties ?? {}))
    parameters.push({ name, in: 'query', required: required.has(name), schema: plain(schema as TSchema) })
  const responses: Record<string, unknown> = {}
  for (const [status, schema] of Object.entries(route.response))
    responses[status] =
      status === '204'
        ? { description: route.summary }
        : { description: route.summary, content: json(plain(schema)) }
  for (const status of [...COMMON_ERRORS, ...(route.errors ?? [])])
    responses[String(status)] = { $ref: `#/components/responses/Error${status}` }
  const schemes = [{ privateToken: [] }, { bearer: [] }, ...(jobToken ? [{ jobToken: [] }] : [])]
  return {
    operationId: operationId(route.method.toString(), path),
    summary: route.summary,
    security: route.auth === 'required' || route.auth === 'admin' ? schemes : [...schemes, {}],
    parameters,
    ...(route.body ? { requestBody: { content: json(plain(route.body)) } } : {}),
    responses,
  }
}

/**
 * `GET /api/v4/openapi.json`: an OpenAPI 3.1 document built from the same schemas that parse
 * requests and serialise responses, so that it cannot drift from the server. Every operation has
 * an `operationId`, its 4xx answers in GitLab's error shapes, and the authentication GitLab takes:
 * `PRIVATE-TOKEN`, `Authorization: Bearer`, and `JOB-TOKEN` where a route accepts job tokens.
 */
export function openapiRoutes(api: ApiContext) {
  const { app, route: routes, instance } = api
  let cached: unknown
  app.get('/api/v4/openapi.json', async () => {
    if (cached) return cached
    const paths: Record<string, Record<string, unknown>> = {}
    for (const route of routes.docs) {
      const path = (route.docUrl ?? route.url).replace(/^\/api\/v4/, '').replace(/:(\w+)/g, '{$1}')
      paths[path] = {
        ...paths[path],
        [route.method.toString().toLowerCase()]: operation(route, path, route.jobToken ?? false),
      }
    }
    const errorResponses = Object.fromEntries(
      Object.entries(ERRORS).map(([status, e]) => [
        `Error${status}`,
        { description: e.description, content: json({ ...errorRef, example: e.example }) },
      ]),
    )
    cached = {
      openapi: '3.1.0',
      info: {
        title: 'GitLab REST API v4 (gitlab-actions reference server subset)',
        version: instance.version,
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: `${instance.baseUrl}/api/v4` }],
      tags: [{ name: 'emulator', description: 'Controls of the reference server, not part of GitLab' }],
      components: {
        securitySchemes: {
          privateToken: { type: 'apiKey', in: 'header', name: 'PRIVATE-TOKEN' },
          bearer: { type: 'http', scheme: 'bearer', description: 'A personal access token' },
          jobToken: {
            type: 'apiKey',
            in: 'header',
            name: 'JOB-TOKEN',
            description: 'A running CI job token',
          },
        },
        schemas: { Error: plain(ErrorBody), Seed: plain(Seed) },
        responses: errorResponses,
      },
      security: [{ privateToken: [] }, { bearer: [] }, {}],
      paths: { ...paths, ...emulatorPaths(instance.baseUrl) },
    }
    return cached
  })
}
