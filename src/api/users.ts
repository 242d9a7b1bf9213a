import type { CurrentUser, Version } from '../schema/index.js'
import type { CallOptions, Http } from './http.js'

/** `GET /user`: who the token belongs to. */
export const users = (http: Http) => ({
  current: (options: CallOptions = {}) => http.request<CurrentUser>('GET', '/user', options),
})

/** `GET /version`. */
export const version =
  (http: Http) =>
  (options: CallOptions = {}) =>
    http.request<Version>('GET', '/version', options)
