import { Version } from '../schema/version.js'
import type { CallOptions, Http } from './http.js'

/** `GET /version`: GitLab's version and revision (any signed-in user). */
export const version =
  (http: Http) =>
  (options: CallOptions = {}): Promise<Version> =>
    http.request('GET', '/version', { ...options, response: Version })
