import { createHash, createHmac } from 'node:crypto'

/** SHA-256 of the empty payload, the `x-amz-content-sha256` of a GET or HEAD. */
export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'

const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text, 'utf8').digest()
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')
/** RFC 3986 encoding as SigV4 wants it: unreserved characters kept, everything else %XX. */
const encode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)

export interface SignInput {
  method: 'GET' | 'HEAD'
  url: URL
  region: string
  accessKeyId: string
  secretAccessKey: string
  now: Date
  /** Extra headers to sign (lower-case names), e.g. `range`. */
  headers?: Record<string, string>
  service?: string
}

/**
 * Signs a request with AWS Signature Version 4 (AWS General Reference, "Signature Version 4
 * signing process"; S3's "Authenticating Requests: Using the Authorization Header"): canonical
 * request over method, URI (each segment encoded once), sorted query, signed headers (`host`,
 * `x-amz-content-sha256`, `x-amz-date` and any extra), payload hash; string to sign with the
 * `<date>/<region>/<service>/aws4_request` scope; the key derived by HMAC chain. Returns the
 * headers to send, `authorization` included.
 */
export function signV4(input: SignInput): Record<string, string> {
  const amzDate = input.now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')
  const date = amzDate.slice(0, 8)
  const service = input.service ?? 's3'
  const headers: Record<string, string> = {
    host: input.url.host,
    'x-amz-content-sha256': EMPTY_SHA256,
    'x-amz-date': amzDate,
    ...input.headers,
  }
  const names = Object.keys(headers)
    .map((n) => n.toLowerCase())
    .sort()
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]))
  const canonicalHeaders = names.map((n) => `${n}:${String(lower[n]).trim().replace(/\s+/g, ' ')}\n`).join('')
  const signedHeaders = names.join(';')
  const path = input.url.pathname
    .split('/')
    .map((s) => encode(decodeURIComponent(s)))
    .join('/')
  const query = [...input.url.searchParams.entries()]
    .map(([k, v]) => `${encode(k)}=${encode(v)}`)
    .sort()
    .join('&')
  const canonical = [input.method, path || '/', query, canonicalHeaders, signedHeaders, EMPTY_SHA256].join(
    '\n',
  )
  const scope = `${date}/${input.region}/${service}/aws4_request`
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n')
  const key = hmac(
    hmac(hmac(hmac(`AWS4${input.secretAccessKey}`, date), input.region), service),
    'aws4_request',
  )
  const signature = createHmac('sha256', key).update(toSign, 'utf8').digest('hex')
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${input.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  }
}

/**
 * The object's URL: `https://<bucket>.s3.<region>.amazonaws.com/<key>` (virtual-hosted style), or
 * `<endpoint>/<bucket>/<key>` (path style) when the server was started with `--s3-endpoint`.
 */
export function s3ObjectUrl(bucket: string, region: string, key: string, endpoint?: string): URL {
  const encodedKey = key.split('/').map(encode).join('/')
  if (endpoint) return new URL(`${endpoint.replace(/\/+$/, '')}/${encode(bucket)}/${encodedKey}`)
  return new URL(`https://${bucket}.s3.${region}.amazonaws.com/${encodedKey}`)
}
