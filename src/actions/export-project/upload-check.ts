/*
 * After GitLab uploaded an export (`upload[url]`), one look at the target: a HEAD on the same URL.
 * Pre-signed URLs are often signed for PUT only, so a refusal says nothing about the upload; the
 * answer is reported, never a reason to fail. The URL is a secret and is never part of the text.
 */
import { formatBytes } from '../connection.js'

/** One line on what the target answered to HEAD. */
export async function checkUpload(url: string, signal?: AbortSignal): Promise<string> {
  try {
    // Loaded here, after the export: the whole of undici (the client loads only its Agent) for one HEAD.
    const { request } = await import('undici')
    const res = await request(url, {
      method: 'HEAD',
      signal,
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    })
    await res.body.dump()
    const length = Number(res.headers['content-length'])
    if (res.statusCode >= 200 && res.statusCode < 300)
      return Number.isFinite(length)
        ? `the upload target holds ${formatBytes(length)} at that address (HEAD ${res.statusCode})`
        : `the upload target answers HEAD ${res.statusCode} at that address`
    return `the upload target could not be checked (HEAD answered ${res.statusCode}; pre-signed URLs are often signed for one method only)`
  } catch (err) {
    return `the upload target could not be checked (HEAD failed: ${(err as Error).message})`
  }
}
