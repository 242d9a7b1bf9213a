import { BlockedUrlError, checkUrl } from '../outbound/outbound-url.js'

/*
 * `include: remote` (`External::File::Remote`): one GET through the outbound guard (GitLab's URL rules,
 * checked again at connect time), following redirects as `Gitlab::HTTP` does, with its timeouts; each
 * failure worded as GitLab words it. undici loads on the first remote include, not at start-up.
 */

/** A remote file's text, or GitLab's reason it could not be fetched. */
export type RemoteInclude = { text: string } | { error: string }

/** Fetches one remote include's URL. */
export type RemoteIncludeFetcher = (url: string) => Promise<RemoteInclude>

/** `Gitlab::HTTP`'s default `open_timeout` and `read_timeout`. */
const OPEN_TIMEOUT_MS = 10_000
const READ_TIMEOUT_MS = 20_000
/**
 * The read timeout restarts with every byte: a server sending one now and then is cut after GitLab's
 * deadline for resolving a configuration (`External::Processor`, 30 s), a timeout error.
 */
const DEADLINE_MS = 30_000
/** `max_yaml_size_bytes` (1 MiB): a bigger file is refused as YAML GitLab will not load. */
const MAX_FILE_BYTES = 1024 * 1024

const errorCode = (err: unknown): string | undefined => {
  for (let e = err as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e)
    if (typeof e.code === 'string') return e.code
  return undefined
}
const blocked = (err: unknown): BlockedUrlError | undefined => {
  for (let e = err as { cause?: unknown } | undefined; e; e = e.cause as typeof e)
    if (e instanceof BlockedUrlError) return e
  return undefined
}

/** The fetcher of a server: local addresses only with `allowLocal` (`--allow-local-requests`). */
export function remoteIncludes(allowLocal: boolean): RemoteIncludeFetcher {
  return async (url) => {
    let target: URL
    try {
      target = checkUrl(url, ['http', 'https'], allowLocal)
    } catch (err) {
      if (err instanceof BlockedUrlError)
        return { error: `Remote file could not be fetched because URL is blocked: ${err.message}!` }
      throw err
    }
    const [{ request }, { followingRedirects, outboundAgent }] = await Promise.all([
      import('undici'),
      import('../outbound/outbound-agent.js'),
    ])
    const agent = outboundAgent(allowLocal, OPEN_TIMEOUT_MS)
    try {
      const res = await request(target, {
        dispatcher: followingRedirects(agent),
        headersTimeout: READ_TIMEOUT_MS,
        bodyTimeout: READ_TIMEOUT_MS,
        signal: AbortSignal.timeout(DEADLINE_MS),
      })
      if (res.statusCode >= 400) {
        await res.body.dump()
        return {
          error: `Remote file \`${url}\` could not be fetched because of HTTP code \`${res.statusCode}\` error!`,
        }
      }
      const chunks: Buffer[] = []
      let size = 0
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.length
        // Leaving the loop closes the body: the rest is not read.
        if (size > MAX_FILE_BYTES)
          return { error: `Included file \`${url}\` does not have valid YAML syntax!` }
        chunks.push(chunk)
      }
      return { text: Buffer.concat(chunks).toString('utf8') }
    } catch (err) {
      return { error: fetchError(url, target, err) }
    } finally {
      await agent.close()
    }
  }
}

/** `Remote#fetch_remote_content`'s rescues, in its words. */
function fetchError(url: string, target: URL, err: unknown): string {
  const refused = blocked(err)
  if (refused) return `Remote file could not be fetched because URL is blocked: ${refused.message}!`
  const code = errorCode(err)
  if ((err as Error).name === 'TimeoutError' || (code && /TIMEOUT/.test(code)))
    return `Remote file \`${url}\` could not be fetched because of a timeout error!`
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `Remote file \`${url}\` could not be fetched because of a socket error!`
  if (code === 'ECONNREFUSED') {
    // Errno::ECONNREFUSED as Net::HTTP raises it.
    const host = target.hostname.replace(/^\[|\]$/g, '')
    const port = target.port || (target.protocol === 'https:' ? '443' : '80')
    return `Remote file could not be fetched because Failed to open TCP connection to ${host}:${port} (Connection refused - connect(2) for "${host}" port ${port})!`
  }
  return `Remote file \`${url}\` could not be fetched because of HTTP error!`
}
