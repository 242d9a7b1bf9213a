import type { ProjectAlias, ProjectAliasCreate } from '../../schema/index.js'
import {
  forbidden,
  notFound,
  paramError,
  recordNotFound,
  unauthorized,
  validationError,
} from '../grape/gitlab-errors.js'
import type { Store } from '../store/index.js'
import type { AliasRow } from '../store/aliases.js'
import type { Actor } from './access.js'

/** `Gitlab::PathRegex.project_path_format_regex` and its message (`lib/gitlab/path_regex.rb`). */
const NAME_FORMAT = /^[a-zA-Z0-9_.][a-zA-Z0-9_\-.]*$/
const FORMAT_MESSAGE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'"

const present = (row: AliasRow): ProjectAlias => ({ id: row.id, project_id: row.project_id, name: row.name })

/**
 * Project aliases (EE): administrators only, anonymous 401, everyone else 403
 * (`ee/lib/api/project_aliases.rb`).
 */
export function aliasService(store: Store) {
  const find = (name: string) => {
    const row = store.aliases.byName(name)
    if (!row) throw recordNotFound()
    return row
  }
  return {
    /** GitLab's `authenticated_as_admin!`, which runs before anything else on these routes. */
    requireAdmin(actor: Actor) {
      if (!actor.user) throw unauthorized()
      if (!actor.admin) throw forbidden()
    },
    list: (limit: number, offset: number) => ({
      items: store.aliases.page(limit, offset).map(present),
      total: store.aliases.count(),
    }),
    get: (name: string) => present(find(name)),
    /** 404 `Project Not Found` for an unknown project; model errors as 400 `{"message":{"name":[...]}}`. */
    create(input: ProjectAliasCreate): ProjectAlias {
      const ref = input.project_id
      if (typeof ref !== 'string' && typeof ref !== 'number') throw paramError('project_id is invalid')
      const project = /^\d+$/.test(String(ref))
        ? store.projects.get(Number(ref))
        : store.projects.byPath(String(ref))
      if (!project) throw notFound('Project')
      const errors: string[] = []
      if (input.name.trim() === '') errors.push("can't be blank")
      else if (store.aliases.byName(input.name)) errors.push('has already been taken')
      if (!NAME_FORMAT.test(input.name) || /\.(git|atom)$/.test(input.name)) errors.push(FORMAT_MESSAGE)
      if (errors.length > 0) throw validationError({ name: errors })
      store.aliases.insert(project.id, input.name)
      return present(find(input.name))
    },
    remove: (name: string) => void store.aliases.remove(find(name).id),
  }
}
export type AliasService = ReturnType<typeof aliasService>
