import multipart, { type FastifyMultipartOptions } from '@fastify/multipart'
import type { FastifyInstance, FastifyPluginCallback } from 'fastify'
import { invalidJsonBody, jsonLimitError } from '../grape/gitlab-errors.js'
import { parseQuery } from './form-params.js'
import { BODY_LIMITS, jsonLimitExceeded } from '../domain/json-depth.js'
import { keepBodyBytes, RAW_MULTIPART_FIELDS } from './malformed-strings.js'

/** The parsers every route shares: forms, JSON as Grape reads it, YAML and plain text as text. */
export async function bodyParsers(app: FastifyInstance): Promise<void> {
  // Forms and JSON are read whole as bytes, which the malformed-string guard checks once parsed.
  app.removeContentTypeParser('application/x-www-form-urlencoded')
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (req, body, done) => {
    keepBodyBytes(req, body as Buffer)
    done(null, parseQuery((body as Buffer).toString()))
  })
  // Grape reads an empty JSON body as no parameters, and answers bad JSON with its own words;
  // GitLab's JSON validation middleware refuses a body over its limits before that (and before any
  // authentication): what an anonymous body can make JSON.parse build is bounded.
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    keepBodyBytes(req, body as Buffer)
    const exceeded = jsonLimitExceeded(body as Buffer, BODY_LIMITS)
    if (exceeded) return done(jsonLimitError(exceeded), undefined)
    const text = (body as Buffer).toString('utf8').trim()
    if (text === '') return done(null, {})
    try {
      done(null, JSON.parse(text))
    } catch {
      done(invalidJsonBody(), undefined)
    }
  })
  for (const type of ['application/yaml', 'application/x-yaml', 'text/yaml', 'text/plain'])
    app.addContentTypeParser(type, { parseAs: 'string' }, (_req, body, done) => done(null, body))
}

/** Routes served under a body parser of their own, mounted by the route index (routes/index.ts). */
export interface ParserScopes {
  /** Under the metric images' multipart limits: `fileSize` files, an oversized one truncated, not 413. */
  metricImageUploads?: { fileSize: number; mount(scope: FastifyInstance): void }
  /** With form-encoded bodies kept as text (the emulator's seed route reads YAML sent as a form). */
  textForms(scope: FastifyInstance): void
}

/**
 * The multipart parsers and the scoped ones, in the order they must register: a scope inherits
 * the parsers its parent has when the scope is made, so the metric images' own multipart scope
 * comes before the root's multipart parser (uploaded archives and multipart forms everywhere
 * else), and the text-form scope after it. Registrations run when the server starts, after every
 * route of the flat tables.
 */
export function scopedBodyParsers(
  app: FastifyInstance,
  limits: { maxImportSize: number },
  scopes: ParserScopes,
): void {
  const { metricImageUploads } = scopes
  if (metricImageUploads)
    void app.register(async (scope: FastifyInstance) => {
      await scope.register(multipartParts, {
        ...RAW_MULTIPART_FIELDS,
        throwFileSizeLimit: false,
        limits: { fileSize: metricImageUploads.fileSize },
      })
      metricImageUploads.mount(scope)
    })
  void app.register(multipartParts, {
    ...RAW_MULTIPART_FIELDS,
    limits: {
      files: 10,
      fields: 100,
      fieldSize: 1024 * 1024,
      fileSize: limits.maxImportSize > 0 ? limits.maxImportSize : Infinity,
    },
  })
  void app.register(async (scope: FastifyInstance) => {
    scope.removeContentTypeParser('application/x-www-form-urlencoded')
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'buffer' },
      (req, body, done) => {
        keepBodyBytes(req, body as Buffer)
        done(null, (body as Buffer).toString())
      },
    )
    scopes.textForms(scope)
  })
}

/**
 * @fastify/multipart (unencapsulated, as it registers itself) without its `onResponse` hook, which
 * deletes the temporary files of `req.saveRequestFiles()`: no route saves files that way (parts are
 * read as streams), and the hook, an async function, cost a promise and a microtask turn on every
 * request of every route.
 */
const multipartParts: FastifyPluginCallback<FastifyMultipartOptions> = Object.assign(
  (app: FastifyInstance, options: FastifyMultipartOptions, done: (err?: Error) => void) => {
    const addHook = app.addHook
    app.addHook = ((name: string, hook: never) =>
      name === 'onResponse' ? app : addHook.call(app, name as never, hook)) as typeof addHook
    try {
      ;(multipart as unknown as FastifyPluginCallback<FastifyMultipartOptions>)(app, options, done)
    } finally {
      app.addHook = addHook
    }
  },
  { [Symbol.for('skip-override')]: true, [Symbol.for('fastify.display-name')]: '@fastify/multipart' },
)
