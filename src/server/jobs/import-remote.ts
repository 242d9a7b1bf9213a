import { request } from 'undici'
import { humanSize } from '../domain/human-size.js'
import { followingRedirects, outboundAgent } from '../outbound/outbound-agent.js'

/**
 * `RemoteFileValidator`'s allowed types (`app/validators/import/gitlab_projects/remote_file_validator.rb`).
 */
export const ALLOWED_TYPES = ['application/gzip', 'application/x-tar', 'application/x-gzip']
/** `FILE_SIZE_LIMIT` / default `max_import_remote_file_size`: 10 GiB. */
export const REMOTE_FILE_LIMIT = 10 * 1024 * 1024 * 1024

/** A refused remote file: `message` is GitLab's text, answered as 400 `{"message": ...}`. */
export class RemoteFileError extends Error {}

/** The headers of a HEAD request, or the error that prevented it. */
export async function headOf(
  url: URL,
  headers: Record<string, string>,
  allowLocal: boolean,
): Promise<{ status: number; headers: Record<string, string> }> {
  const agent = outboundAgent(allowLocal, 1000)
  try {
    const res = await request(url, {
      method: 'HEAD',
      headers,
      dispatcher: followingRedirects(agent),
      headersTimeout: 1000,
    })
    await res.body.dump()
    const flat: Record<string, string> = {}
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = String(v)
    return { status: res.statusCode, headers: flat }
  } finally {
    await agent.close()
  }
}

/**
 * `RemoteFileValidator`: `Content-Length` numeric and above 0, at most 10 GiB;
 * `Content-Type` (parameters ignored) one of ALLOWED_TYPES. Throws RemoteFileError.
 */
export function validateRemoteFile(headers: Record<string, string>): void {
  const raw = headers['content-length']
  const length = raw !== undefined && /^\d+$/.test(raw.trim()) ? Number(raw) : 0
  if (length <= 0) throw new RemoteFileError('Content length is too small (should be at least 1 Byte)')
  if (length > REMOTE_FILE_LIMIT)
    throw new RemoteFileError(`Content length is too big (should be at most ${humanSize(REMOTE_FILE_LIMIT)})`)
  const type = (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
  if (!ALLOWED_TYPES.includes(type))
    throw new RemoteFileError(
      `Content type '${headers['content-type'] ?? ''}' not allowed. (Allowed: ${ALLOWED_TYPES.join(', ')})`,
    )
}
