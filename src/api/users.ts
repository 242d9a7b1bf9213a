import { CurrentUser } from '../schema/user.js'
import type { CallOptions, Http } from './http.js'

/** The users group of the client. */
export const users = (http: Http) => ({
  /** `GET /user`: who the token belongs to. 401 `{"message":"401 Unauthorized"}` without a valid token. */
  current: (options: CallOptions = {}) => http.request('GET', '/user', { ...options, response: CurrentUser }),
})
/** The type of `client.users`. */
export type UsersApi = ReturnType<typeof users>
