import type { NamespaceBasic } from '../../schema/index.js'
import { notFound, unauthorized } from '../grape/gitlab-errors.js'
import { presentNamespace } from '../present/namespaces.js'
import type { Actor } from './access.js'
import type { ServiceContext } from './context.js'

/**
 * One namespace (lib/api/namespaces.rb): signed-in callers only; a namespace is shown to
 * administrators, its user and members of the group or a group above it
 * (`read_namespace_via_membership`), 404 `Namespace Not Found` to everyone else.
 */
export function namespaceService(ctx: ServiceContext) {
  const { store, access, instance } = ctx
  return {
    /** `GET /namespaces/:id`: by id or full path. */
    get(actor: Actor, ref: string): NamespaceBasic {
      if (!actor.user) throw unauthorized()
      const ns = /^\d+$/.test(ref) ? store.namespaces.get(Number(ref)) : store.namespaces.byPath(ref)
      if (!ns || !(actor.admin || access.groupLevel(actor, ns) > 0)) throw notFound('Namespace')
      return presentNamespace(ns, instance)
    },

    /**
     * `GET /namespaces/:namespace/exists`: whether a namespace under `parent_id` (top level without
     * it) has the path, any case; if so, `Namespace.clean_path`'s free path with a number after it.
     */
    exists(actor: Actor, path: string, parentId: number | undefined) {
      if (!actor.user) throw unauthorized()
      const lower = path.toLowerCase()
      const all = store.namespaces.all()
      const exists = all.some((ns) => ns.parent_id === (parentId ?? null) && ns.path.toLowerCase() === lower)
      if (!exists) return { exists, suggests: [] }
      const taken = new Set(all.map((ns) => ns.path.toLowerCase()))
      let n = 1
      while (taken.has(`${lower}${n}`)) n++
      return { exists, suggests: [`${path}${n}`] }
    },
  }
}
export type NamespaceService = ReturnType<typeof namespaceService>
