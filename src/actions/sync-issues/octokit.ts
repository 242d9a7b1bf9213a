/*
 * The GitHub client of the bundle: Octokit (REST: `request` and pagination), pointed at
 * $GITHUB_API_URL (GitHub Enterprise Server too), with @octokit/plugin-throttling: writes one at a
 * time with a gap between them (GitHub's secondary limits on content creation), and a 403/429
 * rate-limit answer waited out (`Retry-After`, else `x-ratelimit-reset`) and retried.
 * Built from @octokit/core as @actions/github builds its own, without the generated REST methods
 * (unused here) and on Node's fetch; @actions/github's fetch, with its whole undici, loads only
 * behind a proxy (`proxiedFetch`). This module is a chunk of its own, loaded when sync-issues starts.
 */
import { getProxyUrl } from '@actions/http-client/lib/proxy.js'
import { Octokit } from '@octokit/core'
import { paginateRest } from '@octokit/plugin-paginate-rest'
import { throttling } from '@octokit/plugin-throttling'
import Bottleneck from 'bottleneck/light.js'
import type { GitHubRequest } from '../../sync/github.js'

/** One wait for a GitHub rate limit, told before it starts. */
export interface RateLimitWait {
  kind: 'primary' | 'secondary'
  seconds: number
  /** `POST /repos/{owner}/{repo}/issues`: the route, never its values. */
  route: string
  /** 1 for the first retry of this call, of `retries`. */
  retry: number
  retries: number
}

export interface GitHubOptions {
  /** $GITHUB_API_URL; default https://api.github.com. */
  baseUrl?: string
  /** Gap between two writes (default 1,000 ms; GitHub asks for at least one second). */
  writeGapMs?: number
  /** Retries of one call after a rate-limit answer (default 3). */
  retries?: number
  /** Longest single wait for a limit (default 900 s); a longer one fails the call. */
  maxWaitSeconds?: number
  /** Called before each wait (the action logs it). */
  onWait?: (wait: RateLimitWait) => void
  /** Milliseconds actually waited per second asked (default 1,000); tests shorten the waits with it. */
  msPerSecond?: number
}

/** Describes a wait for the log: `GitHub secondary rate limit on POST /repos/...: waiting 3 s (retry 1 of 3)`. */
export const describeWait = (w: RateLimitWait) =>
  `GitHub ${w.kind} rate limit on ${w.route}: waiting ${w.seconds} s (retry ${w.retry} of ${w.retries})`

/**
 * The fetch of @actions/github when HTTPS_PROXY (HTTP_PROXY for http) applies to `baseUrl`, read
 * as @actions/github reads it (NO_PROXY, loopback addresses bypass); otherwise undefined, and
 * Octokit uses Node's own fetch.
 */
async function proxiedFetch(baseUrl: string): Promise<typeof fetch | undefined> {
  if (!getProxyUrl(new URL(baseUrl))) return undefined
  const { getProxyFetch } = await import('@actions/github/lib/internal/utils.js')
  return getProxyFetch(baseUrl) as unknown as typeof fetch
}

const GitHub = Octokit.plugin(paginateRest, throttling)

/** An Octokit for `token`, throttled as GitHub asks. */
export async function octokit(token: string, options: GitHubOptions = {}): Promise<GitHubRequest> {
  const retries = options.retries ?? 3
  const gap = options.writeGapMs ?? 1000
  const baseUrl = options.baseUrl ?? 'https://api.github.com'
  // The input's gap between writes, also for those that notify (the plugin's defaults: 1 s, and 3 s).
  const spaced = () => new Bottleneck.Group({ maxConcurrent: 1, minTime: gap })
  const onLimit =
    (kind: RateLimitWait['kind']) =>
    (seconds: number, request: { method: string; url: string }, _octokit: unknown, retryCount: number) => {
      if (retryCount >= retries || seconds > (options.maxWaitSeconds ?? 900)) return false
      options.onWait?.({
        kind,
        seconds,
        route: `${request.method} ${request.url}`,
        retry: retryCount + 1,
        retries,
      })
      return true
    }
  const fetch = await proxiedFetch(baseUrl)
  return new GitHub({
    auth: token,
    baseUrl,
    ...(fetch ? { request: { fetch } } : {}),
    throttle: {
      id: 'sync-issues',
      write: spaced(),
      notifications: spaced(),
      retryAfterBaseValue: options.msPerSecond ?? 1000,
      onRateLimit: onLimit('primary'),
      onSecondaryRateLimit: onLimit('secondary'),
    },
  })
}
