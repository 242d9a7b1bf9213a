/*
 * The GitHub client of the bundle: `@actions/github`'s Octokit (REST), pointed at $GITHUB_API_URL
 * (GitHub Enterprise Server too). Loaded on demand so that tests can inject their own.
 */
import { getOctokit } from '@actions/github'
import type { GitHubRequest } from '../../sync/github.js'

/** An Octokit for `token`; `baseUrl` defaults to $GITHUB_API_URL, else https://api.github.com. */
export function octokit(token: string, baseUrl?: string): GitHubRequest {
  return getOctokit(token, baseUrl ? { baseUrl } : {})
}
