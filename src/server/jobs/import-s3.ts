import aws4 from 'aws4'

/** SHA-256 of the empty payload, the `x-amz-content-sha256` of a GET or HEAD. */
export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'

/** RFC 3986 encoding as S3 wants it: unreserved characters kept, everything else %XX. */
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
 * Signs a request with AWS Signature Version 4 (`aws4`): `host`, `x-amz-content-sha256` (the empty
 * payload's), `x-amz-date` from `now`, and any extra headers signed (`range` too, which aws4 leaves
 * out unless asked). Returns the headers to send, `authorization` included.
 */
export function signV4(input: SignInput): Record<string, string> {
  const headers: Record<string, string> = {
    host: input.url.host,
    'x-amz-content-sha256': EMPTY_SHA256,
    'x-amz-date': input.now
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, ''),
    ...input.headers,
  }
  const request: aws4.Request & { extraHeadersToInclude: Record<string, boolean> } = {
    method: input.method,
    host: input.url.host,
    path: `${input.url.pathname}${input.url.search}`,
    service: input.service ?? 's3',
    region: input.region,
    headers: { ...headers },
    extraHeadersToInclude: Object.fromEntries(Object.keys(input.headers ?? {}).map((n) => [n, true])),
  }
  const signed = aws4.sign(request, {
    accessKeyId: input.accessKeyId,
    secretAccessKey: input.secretAccessKey,
  })
  return { ...headers, authorization: String(signed.headers?.Authorization) }
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
