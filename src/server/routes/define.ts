import { Type, type TObject, type TSchema, type Static } from '@sinclair/typebox'
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify'
import { parseParams, pathErrors } from '../params.js'
import { multipartParams } from '../form-params.js'
import { GitLabError, badRequest, unauthorized } from '../gitlab-errors.js'
import type { Actor } from '../services/access.js'
import type { ResponseCache } from '../response-cache.js'

declare module 'fastify' {
  interface FastifyInstance {
    responseCache: ResponseCache
  }
}

/** One route of the API, as the OpenAPI document describes it. */
export interface RouteDoc {
  method: HTTPMethods
  url: string
  summary: string
  params?: TObject
  query?: TObject
  body?: TObject
  response: Record<number, TSchema>
  /** Who may call it: `optional` routes take anonymous callers too. */
  auth?: AuthRule
  /** 4xx statuses besides those every route may answer (400, 401, 403, 404), e.g. 405, 409, 429. */
  errors?: number[]
  /** The path as the OpenAPI document names it, where the router needs a wildcard (`/ref/*`). */
  docUrl?: string
}

const NO_PARAMS = Type.Object({})

/** `required`: GitLab's `authenticate!`; `non_get`: `authenticate_non_get!`; `optional`: anonymous welcome. */
export type AuthRule = 'required' | 'non_get' | 'optional'

export interface Handled<P, Q> {
  req: FastifyRequest
  reply: FastifyReply
  actor: Actor
  /**
   * Route path parameters, raw (ids stay strings: a number or a full path). Those `pathParams`
   * declares `Type.Integer()` have been checked already; read them with `pathInteger`.
   */
  path: Record<string, string>
  /** Query and body merged, parsed against the route's schema as Grape does (src/server/params.ts). */
  params: P
  query: Q
  /**
   * A cached route's answer reads only these scopes (`project:<id>`, `group:<path>`;
   * src/server/store/changes.ts), so writes elsewhere keep it; unsaid, any write drops it.
   */
  cachedUnder(scopes: string[]): void
}

/**
 * Registers a route whose parameters are parsed by our Grape-style parser and whose responses
 * are serialised through their schemas; the route is recorded for `/api/v4/openapi.json`.
 */
export function defineRoute<P extends TObject, Q extends TObject = TObject>(
  app: FastifyInstance,
  registry: RouteDoc[],
  doc: Omit<RouteDoc, 'params' | 'query' | 'body'> & {
    input?: P
    in?: 'query' | 'body'
    pathParams?: TObject
    auth?: AuthRule
    /** Serve repeated GETs from the response cache while the store is unchanged (lists). */
    cached?: boolean
    /** The handler reads a multipart body's parts itself (file uploads); others get its fields as params. */
    readsParts?: boolean
  },
  handler: (h: Handled<Static<P>, Static<Q>>) => unknown,
): void {
  const where = doc.in ?? (doc.method === 'GET' || doc.method === 'DELETE' ? 'query' : 'body')
  registry.push({
    method: doc.method,
    url: doc.url,
    summary: doc.summary,
    ...(doc.pathParams ? { params: doc.pathParams } : {}),
    ...(doc.input ? { [where]: doc.input } : {}),
    response: doc.response,
    auth: doc.auth ?? 'optional',
    ...(doc.errors ? { errors: doc.errors } : {}),
    ...(doc.docUrl ? { docUrl: doc.docUrl } : {}),
  })
  app.route({
    method: doc.method,
    url: doc.url,
    schema: { response: doc.response },
    // Pagination links carry declared parameters only (`lib/gitlab/pagination/offset_header_builder.rb`),
    // never whatever a caller adds.
    config: {
      declared: [
        ...Object.keys(doc.pathParams?.properties ?? {}),
        ...Object.keys(doc.input?.properties ?? {}),
      ],
    },
    // Clients such as gitbeaker send forms as multipart/form-data; Rack reads its fields as params
    // before any API code runs, so a malformed field is refused before authentication and access
    // hooks (src/server/malformed-strings.ts).
    preValidation: (req, _reply, done) => {
      if (doc.readsParts || !req.isMultipart?.()) return done()
      formFields(req).then((fields) => {
        req.body = fields
        done()
      }, done)
    },
    handler: async (req, reply) => {
      const auth = doc.auth ?? 'optional'
      if (!req.actor.user && (auth === 'required' || (auth === 'non_get' && doc.method !== 'GET')))
        throw unauthorized()
      // A cached answer was made for this caller, URL and day from the same store generation,
      // so its parameter and access checks have passed already (errors are never cached).
      const cache = doc.cached ? app.responseCache : undefined
      const generation = cache?.generation() ?? 0
      const key = cache ? `${req.actor.id ?? 0}|${new Date().toISOString().slice(0, 10)}|${req.url}` : ''
      const hit = cache?.get(key, generation)
      if (hit) return reply.headers(hit.headers).type('application/json').send(hit.body)
      const merged = {
        ...(req.query as Record<string, unknown>),
        ...(req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {}),
      }
      // Grape checks the path's integers and the declared parameters in one pass, path first. A
      // handler that reads its parts itself checks its path after them: the malformed-string guard
      // reads every field before Grape validates anything.
      const pathProblems =
        doc.pathParams && !doc.readsParts
          ? pathErrors(doc.pathParams, req.params as Record<string, string>)
          : []
      const params = parseParams(doc.input ?? NO_PARAMS, merged, {}, pathProblems) as Static<P>
      let scopes: string[] | undefined
      const result = await handler({
        req,
        reply,
        actor: req.actor,
        path: req.params as Record<string, string>,
        params,
        query: params as unknown as Static<Q>,
        cachedUnder: (s) => {
          scopes = s
        },
      })
      if (!cache || reply.sent) return result
      const body = Buffer.from(reply.serialize(result) as string)
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(reply.getHeaders()))
        if (value !== undefined && name !== 'content-type') headers[name] = String(value)
      cache.set(key, generation, { body, headers }, scopes)
      return reply.type('application/json').send(body)
    },
  })
}

/** A multipart body's fields (files drained); a body over the limits is 413, a broken one 400. */
async function formFields(req: FastifyRequest): Promise<Record<string, unknown>> {
  try {
    return await multipartParams(req)
  } catch (err) {
    throw err instanceof GitLabError ? err : badRequest()
  }
}
