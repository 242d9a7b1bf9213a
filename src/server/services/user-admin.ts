import type {
  CurrentUser,
  Membership,
  MembershipListQuery,
  UserCreate,
  UserProfile,
  UserUpdate,
} from '../../schema/index.js'
import { isoNow } from '../domain/clock.js'
import { forbidden, messageError, notFound, unauthorized, validationError } from '../grape/gitlab-errors.js'
import { mapPage, pageOf, slicePage, type PageOut } from '../grape/pagination.js'
import { defaultProfile, presentCurrentUser, presentUserProfile } from '../present/users.js'
import { ghostUser } from './ghost-user.js'
import type { UserProfileRow, UserRow } from '../store/users.js'
import { Level, type Actor } from './access.js'
import type { ServiceContext } from './context.js'

/** `Gitlab::PathRegex.namespace_format_regex`: a username is a top-level namespace path. */
const USERNAME = /^[a-zA-Z0-9_.][a-zA-Z0-9_\-.]*$/
const USERNAME_MESSAGE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."
/** Devise's `email_regexp`. */
const EMAIL = /^[^@\s]+@[^@\s]+$/

/** `User#blocked?`: the states the `blocked` state machine groups. */
const BLOCKED = new Set(['blocked', 'ldap_blocked', 'banned', 'blocked_pending_approval'])

/**
 * Users as administrators manage them (`lib/api/users.rb`): create, read, edit, delete, and the
 * state changes block/unblock, ban/unban, deactivate/activate. Every write is for administrators
 * (`authenticated_as_admin!`: 401 anonymous, 403 others).
 */
export function userAdminService(ctx: ServiceContext) {
  const { store, instance } = ctx

  const requireAdmin = (actor: Actor) => {
    if (!actor.user) throw unauthorized()
    if (!actor.admin) throw forbidden()
  }
  const find = (id: number): UserRow => {
    const user = store.users.get(id)
    if (!user) throw notFound('User')
    return user
  }
  const profileOf = (id: number) => store.users.profile(id) ?? defaultProfile(id)
  /** A project or group access token's user (`bot: true`). */
  const isBot = (id: number) => store.accessTokens.botOf(id) !== undefined
  const presentAdmin = (id: number): CurrentUser => {
    const user = find(id)
    return presentCurrentUser(user, instance, profileOf(user.id), isBot(user.id))
  }

  /**
   * `User`'s validations, in their order, for the values a write would leave: 400 with the model's
   * errors. A taken email or username is answered before them as 409, as the API checks it first.
   */
  const validate = (
    u: { email: string; name: string; username: string; password?: string; projects_limit: number },
    self?: UserRow,
  ) => {
    const errors: Record<string, string[]> = {}
    const add = (key: string, message: string) => (errors[key] ??= []).push(message)
    if (!u.email) add('email', "can't be blank")
    else if (!EMAIL.test(u.email)) add('email', 'is invalid')
    if (u.password !== undefined && u.password.length < 8)
      add('password', 'is too short (minimum is 8 characters)')
    if (u.password !== undefined && u.password.length > 128)
      add('password', 'is too long (maximum is 128 characters)')
    if (!u.name) add('name', "can't be blank")
    else if (u.name.length > 255) add('name', 'is too long (maximum is 255 characters)')
    if (!u.username) add('username', "can't be blank")
    else if (!USERNAME.test(u.username) || /(\.|\.git|\.atom)$/.test(u.username))
      add('username', USERNAME_MESSAGE)
    else if (u.username.length > 255) add('username', 'is too long (maximum is 255 characters)')
    else {
      // `User#namespace_uniq`: a group (or another user) may hold the path.
      const holder = store.namespaces.byPath(u.username)
      if (holder && !(holder.kind === 'user' && holder.owner_id === self?.id))
        add('username', 'has already been taken')
    }
    if (u.projects_limit < 0) add('projects_limit', 'must be greater than or equal to 0')
    if (u.projects_limit > 2147483647) add('projects_limit', 'must be less than or equal to 2147483647')
    if (Object.keys(errors).length > 0) throw validationError(errors)
  }
  const checkTaken = (email: string | undefined, username: string | undefined, self?: UserRow) => {
    const byEmail = email === undefined ? undefined : store.users.byEmail(email)
    if (byEmail && byEmail.id !== self?.id) throw messageError(409, 'Email has already been taken')
    const byName = username === undefined ? undefined : store.users.byUsername(username)
    if (byName && byName.id !== self?.id) throw messageError(409, 'Username has already been taken')
  }
  const profileFrom = (
    id: number,
    p: Partial<{
      bio: string
      can_create_group: boolean
      projects_limit: number
      external: boolean
      private_profile: boolean
    }>,
  ): UserProfileRow => {
    const was = profileOf(id)
    const flag = (v: boolean | undefined, old: number) => (v === undefined ? old : v ? 1 : 0)
    return {
      user_id: id,
      bio: p.bio ?? was.bio,
      can_create_group: flag(p.can_create_group, was.can_create_group),
      projects_limit: p.projects_limit ?? was.projects_limit,
      external: flag(p.external, was.external),
      private_profile: flag(p.private_profile, was.private_profile),
    }
  }
  /** Moves the user to `state`; GitLab's endpoints then answer `true`. */
  const setState = (user: UserRow, state: string): true => {
    store.users.set(user.id, { state })
    return true
  }

  return {
    /**
     * `GET /users/:id`: 403 `Not authorized!` anonymous, 404 `User Not Found`; administrators see
     * `UserDetailsWithAdmin`, others `User`.
     */
    get(actor: Actor, id: number): CurrentUser | UserProfile {
      if (!actor.user) throw forbidden('Not authorized!')
      const user = find(id)
      return actor.admin
        ? presentCurrentUser(user, instance, profileOf(user.id), isBot(user.id))
        : presentUserProfile(user, instance, profileOf(user.id), isBot(user.id))
    },

    /** `GET /user`: the caller, with its profile. */
    current(actor: Actor): CurrentUser {
      if (!actor.user) throw unauthorized()
      return presentCurrentUser(actor.user, instance, profileOf(actor.user.id), isBot(actor.user.id))
    },

    /** `POST /users` (`Users::AuthorizedCreateService`): the user, its personal namespace and profile. */
    create(actor: Actor, p: UserCreate): CurrentUser {
      requireAdmin(actor)
      const projectsLimit = p.projects_limit ?? 100000
      try {
        validate({ ...p, projects_limit: projectsLimit })
      } catch (err) {
        // The model refused: a taken email or username is answered as 409 first.
        checkTaken(p.email, p.username)
        throw err
      }
      checkTaken(p.email, p.username)
      const now = isoNow(ctx.clock)
      const id = store.transaction(() => {
        const userId = store.users.insert({
          username: p.username,
          name: p.name,
          email: p.email,
          admin: p.admin ?? false,
          created_at: now,
        })
        store.namespaces.insert({
          kind: 'user',
          path: p.username,
          full_path: p.username,
          name: p.name,
          description: '',
          parent_id: null,
          owner_id: userId,
          visibility: 'public',
          created_at: now,
        })
        store.users.setProfile(profileFrom(userId, { ...p, projects_limit: projectsLimit }))
        return userId
      })
      return presentAdmin(id)
    },

    /** `PUT /users/:id`: 404 first, then 409 for a taken email or username, then the model's 400. */
    update(actor: Actor, id: number, p: UserUpdate): CurrentUser {
      requireAdmin(actor)
      const user = find(id)
      checkTaken(p.email, p.username, user)
      const profile = profileFrom(user.id, p)
      validate(
        {
          email: p.email ?? user.email ?? '',
          name: p.name ?? user.name,
          username: p.username ?? user.username,
          password: p.password,
          projects_limit: profile.projects_limit,
        },
        user,
      )
      store.transaction(() => {
        store.users.set(user.id, {
          username: p.username,
          name: p.name,
          email: p.email,
          admin: p.admin === undefined ? undefined : p.admin ? 1 : 0,
        })
        const ns = store.namespaces.ofUser(user.id)
        if (ns && (p.username !== undefined || p.name !== undefined))
          store.namespaces.renameUserNamespace(ns.id, p.username ?? ns.path, p.name ?? ns.name)
        store.users.setProfile(profile)
      })
      return presentAdmin(user.id)
    },

    /**
     * `DELETE /users/:id`: 409 while the user is a group's only owner (unless `hard_delete`); the
     * user, its personal namespace, tokens and memberships go, its contributions to the Ghost User.
     */
    remove(actor: Actor, id: number, hardDelete: boolean): void {
      requireAdmin(actor)
      const user = find(id)
      const soleOwner = [...store.members.levelsOf(user.id)].some(
        ([key, level]) =>
          level === Level.owner &&
          key.startsWith('namespace:') &&
          store.members.countAt('namespace', Number(key.slice('namespace:'.length)), Level.owner) === 1,
      )
      if (soleOwner && !hardDelete)
        throw messageError(409, 'User cannot be removed while is the sole-owner of a group')
      const ns = store.namespaces.ofUser(user.id)
      // GitLab deletes a user's personal projects with the user; the server deletes no project yet.
      if (ns && store.namespaces.projectCount(ns.id) > 0)
        throw messageError(409, 'User cannot be removed while they have personal projects')
      store.transaction(() => {
        if (ns) store.namespaces.remove(ns.id)
        store.users.reassign(user.id, ghostUser(store, isoNow(ctx.clock)))
        store.users.remove(user.id)
      })
    },

    /** `GET /users/:user_id/memberships` (administrators): direct memberships of groups and projects. */
    memberships(actor: Actor, id: number, q: MembershipListQuery): PageOut<Membership> {
      requireAdmin(actor)
      const user = find(id)
      const rows = store.members
        .rowsOf(user.id)
        .filter((m) => !q.type || (q.type === 'Project') === (m.source_type === 'project'))
      return mapPage(slicePage(rows, pageOf(q)), (m) => ({
        source_id: m.source_id,
        source_name:
          (m.source_type === 'project'
            ? store.projects.get(m.source_id)?.name
            : store.namespaces.get(m.source_id)?.name) ?? '',
        source_type: m.source_type === 'project' ? 'Project' : 'Namespace',
        access_level: m.access_level,
      }))
    },

    /** `POST /users/:id/block`: `null` when already blocked; never the caller itself. */
    block(actor: Actor, id: number): true | null {
      requireAdmin(actor)
      const user = find(id)
      if (user.state === 'ldap_blocked') throw forbidden('LDAP blocked users cannot be modified by the API')
      if (user.id === actor.user?.id) throw forbidden('The API initiating user cannot be blocked by the API')
      if (BLOCKED.has(user.state)) return null
      return setState(user, 'blocked')
    },

    /** `POST /users/:id/unblock`: `false` when the user was not blocked (`UnblockService`). */
    unblock(actor: Actor, id: number): boolean {
      requireAdmin(actor)
      const user = find(id)
      if (user.state === 'ldap_blocked') throw forbidden('LDAP blocked users cannot be unblocked by the API')
      if (user.state === 'deactivated') throw forbidden('Deactivated users cannot be unblocked by the API')
      if (user.state !== 'blocked') return false
      return setState(user, 'active')
    },

    /** `POST /users/:id/deactivate`: `null` when already deactivated; a blocked user cannot be. */
    deactivate(actor: Actor, id: number): true | null {
      requireAdmin(actor)
      const user = find(id)
      if (user.state === 'deactivated') return null
      if (BLOCKED.has(user.state))
        throw messageError(403, 'Error occurred. A blocked user cannot be deactivated')
      return setState(user, 'deactivated')
    },

    /** `POST /users/:id/activate`: `false` when the user was active already. */
    activate(actor: Actor, id: number): boolean {
      requireAdmin(actor)
      const user = find(id)
      if (BLOCKED.has(user.state)) throw forbidden('A blocked user must be unblocked to be activated')
      if (user.state !== 'deactivated') return false
      return setState(user, 'active')
    },

    /** `POST /users/:id/ban` and `unban` (`Users::BanService`, `UnbanService`). */
    ban(actor: Actor, id: number, action: 'ban' | 'unban'): true {
      requireAdmin(actor)
      const user = find(id)
      const valid = action === 'ban' ? user.state === 'active' : user.state === 'banned'
      if (!valid) throw messageError(403, `You cannot ${action} ${user.state} users.`)
      return setState(user, action === 'ban' ? 'banned' : 'active')
    },
  }
}
export type UserAdminService = ReturnType<typeof userAdminService>
