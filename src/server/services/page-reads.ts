import type { UserBasic } from '../../schema/index.js'
import { notFound } from '../grape/gitlab-errors.js'
import { presentUser } from '../present/users.js'
import type { InstanceCounts } from '../store/instance-counts.js'
import type { NamespaceRow } from '../store/namespaces.js'
import type { Actor } from './access.js'
import type { ServiceContext } from './context.js'

/** A project or group as the pages list them. */
export interface Listed {
  name: string
  full_path: string
  description: string | null
  visibility: string
}

const listed = ({ name, full_path, description, visibility }: Listed): Listed => ({
  name,
  full_path,
  description,
  visibility,
})
const byName = (a: Listed, b: Listed) =>
  a.name.localeCompare(b.name) || a.full_path.localeCompare(b.full_path)

/**
 * What the HTML pages show that no API route answers: the instance's counts, a user's profile
 * with their personal projects (`UsersController#show`), a group's subgroups and projects
 * (`GroupsController#show`), each as the visitor may see them.
 */
export function pageReadService({ store, access, instance }: ServiceContext) {
  return {
    counts: (): InstanceCounts => store.counts(),

    /** A user by username and the projects of their namespace the visitor may read; 404 `User Not Found`. */
    user(actor: Actor, username: string): { user: UserBasic; projects: Listed[] } {
      const user = store.users.byUsername(username)
      if (!user) throw notFound('User')
      const ns = store.namespaces.ofUser(user.id)
      const projects = ns
        ? access
            .readableProjects(actor, ns)
            .filter(({ project }) => project.namespace_id === ns.id)
            .map(({ project }) => listed(project))
        : []
      return { user: presentUser(user, instance), projects: projects.sort(byName) }
    },

    /** A group's own projects and subgroups the visitor may read; 404 `Group Not Found` when hidden. */
    group(actor: Actor, fullPath: string): { group: Listed; projects: Listed[]; subgroups: Listed[] } {
      const group = access.group(actor, fullPath)
      const projects = access
        .readableProjects(actor, group)
        .filter(({ project }) => project.namespace_id === group.id)
        .map(({ project }) => listed(project))
      const subgroups = store.namespaces
        .all()
        .filter((ns: NamespaceRow) => ns.parent_id === group.id && access.canReadGroup(actor, ns))
        .map(listed)
      return { group: listed(group), projects: projects.sort(byName), subgroups: subgroups.sort(byName) }
    },
  }
}
export type PageReadService = ReturnType<typeof pageReadService>
