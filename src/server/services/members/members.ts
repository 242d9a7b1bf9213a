import type {
  Member,
  MemberBulkResult,
  MemberCreate,
  MemberDeleteQuery,
  MemberListQuery,
  MemberUpdate,
} from '../../../schema/index.js'
import { accessLevels } from '../../../schema/common.js'
import { isoNow } from '../../domain/clock.js'
import { forbidden, messageError, notFound, paramError, recordNotFound } from '../../grape/gitlab-errors.js'
import { MAX_COUNT, pageOf, type PageOut } from '../../grape/pagination.js'
import { presentMember } from '../../present/members.js'
import type { MemberFilter, MemberRow, MemberSourceRef } from '../../store/members.js'
import type { UserRow } from '../../store/users.js'
import { Level, type Actor } from '../access.js'
import type { ServiceContext } from '../context.js'
import { memberSources, sourceType, type Source } from './sources.js'
import { memberRules } from './rules.js'

/** `Gitlab::Access.all_values`: the levels a membership may have. */
const LEVELS = new Set(Object.values(accessLevels))

/**
 * Project and group members (`lib/api/members.rb`, `lib/api/helpers/members_helpers.rb`): lists of
 * direct and of inherited members, one member, and adding, editing and removing one
 * (`app/services/members/{create,update,destroy}_service.rb`). Every call signs in
 * (`before { authenticate! }`, on the route); a source the caller may not see is 404.
 */
export function memberService(ctx: ServiceContext) {
  const { store, instance, clock } = ctx
  const sources = memberSources(store, ctx.access, instance.version)
  const rules = memberRules(ctx, sources)

  const present = (actor: Actor, rows: MemberRow[]): Member[] => {
    // Each user (and creator) of the page read once.
    const users = new Map<number, UserRow | undefined>()
    const user = (id: number) => {
      if (!users.has(id)) users.set(id, store.users.get(id))
      return users.get(id)
    }
    return rows.flatMap((r) => {
      const u = user(r.user_id)
      const by = r.created_by_id === null ? undefined : user(r.created_by_id)
      return u ? [presentMember(r, u, by, instance, actor)] : []
    })
  }

  /** `retrieve_members`'s filters: `User.search(query, use_minimum_char_limit: false)`, `user_ids`, `skip_users`. */
  const filterOf = (actor: Actor, q: MemberListQuery): MemberFilter => {
    const query = q.query?.trim().replace(/^@/, '').toLowerCase()
    return {
      ...(query ? { words: query.split(/\s+/), ...(actor.admin ? { email: query } : {}) } : {}),
      ...(q.user_ids?.length ? { userIds: q.user_ids } : {}),
      ...(q.skip_users?.length ? { skipUsers: q.skip_users } : {}),
    }
  }

  /** One page in SQL, counted up to GitLab's 10,000 (past it, one row more says whether a page follows). */
  const list = (
    actor: Actor,
    refs: MemberSourceRef[],
    filter: MemberFilter,
    q: MemberListQuery,
  ): PageOut<Member> => {
    const page = pageOf(q)
    const total = store.members.count(refs, filter, MAX_COUNT + 1)
    const uncounted = total > MAX_COUNT
    const rows = store.members.page(refs, filter, page.perPage + (uncounted ? 1 : 0), page.offset)
    return {
      items: present(actor, rows.slice(0, page.perPage)),
      page,
      total,
      hasMore: uncounted && rows.length > page.perPage,
    }
  }

  const checkLevel = (level: number) => {
    if (!LEVELS.has(level)) throw paramError('access_level does not have a valid value')
  }
  const expiryOf = (expiresAt: string | undefined) => (expiresAt ? expiresAt.slice(0, 10) : undefined)
  const presentOne = (actor: Actor, s: Source, userId: number) => {
    const row = sources.member(s, userId)
    if (!row) throw recordNotFound()
    return present(actor, [row])[0] as Member
  }

  return {
    /** `GET .../members`: direct members, in the order they joined. */
    list(actor: Actor, kind: Source['kind'], ref: string, q: MemberListQuery): PageOut<Member> {
      const s = sources.find(actor, kind, ref)
      return list(actor, sources.direct(s), filterOf(actor, q), q)
    },
    /** `GET .../members/all`: members of the source, of the groups above it and through shares, each user once at its highest level. */
    listAll(actor: Actor, kind: Source['kind'], ref: string, q: MemberListQuery): PageOut<Member> {
      const s = sources.find(actor, kind, ref)
      return list(actor, sources.withShares(actor, s), filterOf(actor, q), q)
    },
    /** `GET .../members/:user_id`: a direct member; 404 `404 Not found` otherwise. */
    get(actor: Actor, kind: Source['kind'], ref: string, userId: number): Member {
      return presentOne(actor, sources.find(actor, kind, ref), userId)
    },
    /** `GET .../members/all/:user_id`: a direct, inherited or shared member; 404 `404 Not found` otherwise. */
    getInherited(actor: Actor, kind: Source['kind'], ref: string, userId: number): Member {
      const s = sources.find(actor, kind, ref)
      const [row] = store.members.page(sources.withShares(actor, s), { userIds: [userId] }, 1, 0)
      if (!row) throw recordNotFound()
      return present(actor, [row])[0] as Member
    },

    /**
     * `POST .../members`: one user (`user_id` or `username`) -> 201 with the member; 404 `User Not
     * Found`, 409 `Member already exists`, 403 without `admin_*_member` (or `manage_owners` to add a
     * project's Owner), 400 with the model's errors (`expires_at` in the past, a level below an
     * inherited one). Several (comma-separated): `Members::CreateService`'s result, each user made a
     * member or given the level, unknown ones left out.
     */
    add(actor: Actor, kind: Source['kind'], ref: string, p: MemberCreate): Member | MemberBulkResult {
      // Grape's `types: [Integer, String]`: a list or a hash is neither.
      if (typeof p.user_id === 'object' && p.user_id !== null) throw paramError('user_id is invalid')
      checkLevel(p.access_level)
      const s = sources.find(actor, kind, ref)
      if (!sources.canAdmin(actor, s)) throw forbidden()
      const given = String(p.user_id ?? p.username ?? '')
      const expiresAt = expiryOf(p.expires_at) ?? null
      if (given.includes(','))
        return rules.addMany(actor, s, given, p.username !== undefined, p.access_level, expiresAt)
      const user = p.username !== undefined ? store.users.byUsername(given) : store.users.get(Number(given))
      if (!user || (p.username === undefined && !/^\d+$/.test(given.trim()))) throw notFound('User')
      if (sources.member(s, user.id)) throw messageError(409, 'Member already exists')
      if (p.access_level === Level.owner && s.kind === 'project' && !sources.canManageOwners(actor, s))
        throw forbidden()
      rules.validate(s, user.id, p.access_level, expiresAt)
      store.transaction(() => {
        store.members.set(sourceType(s), s.row.id, user.id, p.access_level, isoNow(clock))
        store.members.setTerms(sourceType(s), s.row.id, user.id, expiresAt, actor.id)
      })
      return presentOne(actor, s, user.id)
    },

    /**
     * `PUT .../members/:user_id` (`Members::UpdateService`): 403 for a group's last owner and, without
     * `manage_owners`, for a project's owner or a change to Owner; 400 with the model's errors.
     * `expires_at` is kept unless given; given blank (`clearExpiry`, Grape's nil) it is removed.
     */
    edit(
      actor: Actor,
      kind: Source['kind'],
      ref: string,
      userId: number,
      p: MemberUpdate,
      clearExpiry = false,
    ): Member {
      checkLevel(p.access_level)
      const s = sources.find(actor, kind, ref)
      if (!sources.canAdmin(actor, s)) throw forbidden()
      const member = sources.member(s, userId)
      if (!member) throw recordNotFound()
      if (!rules.mayChange(actor, s, member, p.access_level)) throw forbidden()
      const expiresAt = clearExpiry
        ? null
        : p.expires_at === undefined
          ? member.expires_at
          : (expiryOf(p.expires_at) ?? null)
      rules.validate(s, userId, p.access_level, p.expires_at === undefined ? null : expiresAt)
      store.transaction(() => {
        store.members.set(sourceType(s), s.row.id, userId, p.access_level, member.created_at)
        store.members.setTerms(sourceType(s), s.row.id, userId, expiresAt, null)
      })
      return presentOne(actor, s, userId)
    },

    /**
     * `DELETE .../members/:user_id` (`Members::DestroyService`): members may leave, administrators of
     * the members remove others; 403 for a group's last owner. A group member also leaves the
     * groups and projects below unless `skip_subresources`; `unassign_issuables` unassigns them from
     * the source's issues.
     */
    remove(actor: Actor, kind: Source['kind'], ref: string, userId: number, q: MemberDeleteQuery): void {
      const s = sources.find(actor, kind, ref)
      const member = sources.member(s, userId)
      if (!member) throw recordNotFound()
      if (!rules.mayRemove(actor, s, member)) throw forbidden()
      store.transaction(() => {
        store.members.remove(sourceType(s), s.row.id, userId)
        if (s.kind === 'group' && !q.skip_subresources) store.members.removeBelow(userId, s.row.full_path)
        if (q.unassign_issuables)
          store.members.unassign(
            userId,
            s.kind === 'project' ? { projectId: s.row.id } : { groupPath: s.row.full_path },
          )
      })
    },
  }
}
export type MemberService = ReturnType<typeof memberService>
