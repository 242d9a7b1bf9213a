import { request } from 'undici'

/** The parts of a JSON schema the fuzzer and the access matrix read. */
export interface JsonSchema {
  type?: string | string[]
  enum?: unknown[]
  const?: unknown
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  items?: JsonSchema
  properties?: Record<string, JsonSchema>
  required?: string[]
  format?: string
  minimum?: number
  maximum?: number
}

/** One operation of `/api/v4/openapi.json`. */
export interface Operation {
  method: string
  /** OpenAPI path under `/api/v4`, with `{name}` placeholders. */
  path: string
  pathParams: string[]
  query: { name: string; schema: JsonSchema }[]
  body?: JsonSchema
}

/** Reads the server's OpenAPI document and lists every operation it publishes. */
export async function loadOperations(baseUrl: string): Promise<Operation[]> {
  const res = await request(`${baseUrl}/api/v4/openapi.json`)
  const doc = (await res.body.json()) as {
    paths: Record<
      string,
      Record<
        string,
        {
          parameters: { name: string; in: string; schema: JsonSchema }[]
          requestBody?: { content: Record<string, { schema: JsonSchema }> }
        }
      >
    >
  }
  const ops: Operation[] = []
  for (const [path, methods] of Object.entries(doc.paths)) {
    // The emulator's own controls (`/-/emulator/*`, at the server root) are no GitLab API.
    if (path.startsWith('/-/')) continue
    for (const [method, op] of Object.entries(methods)) {
      if (method === 'servers') continue
      ops.push({
        method: method.toUpperCase(),
        path,
        pathParams: op.parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: op.parameters.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema })),
        body: op.requestBody?.content['application/json']?.schema,
      })
    }
  }
  return ops
}

/**
 * `{"message": ...}` or `{"error": ...}`: the two bodies GitLab answers a refusal with
 * (`lib/api/helpers.rb`).
 */
export function isGitLabErrorBody(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false
  return 'message' in body || 'error' in body
}
