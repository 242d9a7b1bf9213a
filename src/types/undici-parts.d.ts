/**
 * The two parts of undici the client loads (src/api/undici.ts): its Agent class and its request
 * API, typed as undici's own entry types them.
 */
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici'
  export default Agent
}
declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici'
  /** `Dispatcher.prototype.request` (undici's entry copies it there), called with the dispatcher as `this`. */
  export default function request(
    this: Dispatcher,
    options: Dispatcher.RequestOptions,
  ): Promise<Dispatcher.ResponseData>
}
