import type { Store } from '../store/index.js'
import type { Instance } from '../present/context.js'
import type { Clock } from '../domain/clock.js'
import type { Access } from './access.js'

/** Everything a service needs: the store, the access rules, the instance settings and a clock. */
export interface ServiceContext {
  store: Store
  access: Access
  instance: Instance
  clock: Clock
}
