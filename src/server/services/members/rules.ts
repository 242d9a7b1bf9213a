import type { MemberBulkResult } from '../../../schema/index.js'
import { isoNow, today } from '../../domain/clock.js'
import { forbidden, validationError } from '../../grape/gitlab-errors.js'
import type { MemberRow } from '../../store/members.js'
import type { UserRow } from '../../store/users.js'
import { Level, type Actor } from '../access.js'
import type { ServiceContext } from '../context.js'
import { humanAccess, sourceType, type MemberSources, type Source } from './sources.js'

/** Ruby's `Array#to_sentence`: `a`, `a and b`, `a, b and c`. */
const toSentence = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`

/**
 * The rules of memberships (`app/models/member.rb`, `app/policies/group_member_policy.rb`,
 * `project_member_policy.rb`, `app/services/members/*`): the model's validations, the last owner of
 * a group, and who may change or remove whom.
 */
export function memberRules(ctx: ServiceContext, sources: MemberSources) {
  const { store, clock } = ctx

  /** `Member`'s validations, as `{attribute: [messages]}` in the model's order; empty when valid. */
  const errorsOf = (s: Source, userId: number, level: number, expiresAt: string | null) => {
    const errors: Record<string, string[]> = {}
    // `validates :expires_at, future_date: true`: today is still allowed.
    if (expiresAt !== null && expiresAt < today(clock)) errors.expires_at = ['cannot be a date in the past']
    // `higher_access_level_than_group`: not below the user's highest membership of a group above.
    let highest: { level: number; name: string } | undefined
    for (const ns of sources.ancestors(s)) {
      const m = store.members.get('namespace', ns.id, userId)
      if (m && (!highest || m.access_level > highest.level))
        highest = { level: m.access_level, name: ns.name }
    }
    if (highest && highest.level > level)
      errors.access_level = [
        `should be greater than or equal to ${humanAccess(highest.level)} inherited membership from group ${highest.name}`,
      ]
    return errors
  }

  /** `Group#last_owner?`: the user owns the group (or a group above) and nobody else does. */
  const lastOwner = (s: Source, member: MemberRow) =>
    s.kind === 'group' &&
    member.access_level === Level.owner &&
    store.members.count(sources.withAncestors(s), { level: Level.owner }, 2) <= 1

  /** Changing an owner, or making one, takes `manage_owners` in a project. */
  const touchesOwner = (actor: Actor, s: Source, from: number, to: number) =>
    s.kind === 'project' && (from === Level.owner || to === Level.owner) && !sources.canManageOwners(actor, s)

  const mayChange = (actor: Actor, s: Source, member: MemberRow, level: number) =>
    !lastOwner(s, member) &&
    !touchesOwner(actor, s, member.access_level, level) &&
    !sources.isHolder(s, member.user_id)

  return {
    /** 400 with the model's errors (`render_validation_error!`). */
    validate(s: Source, userId: number, level: number, expiresAt: string | null): void {
      const errors = errorsOf(s, userId, level, expiresAt)
      if (Object.keys(errors).length > 0) throw validationError(errors)
    },
    mayChange,
    /** `destroy_*_member`: the member itself or an administrator of the members, never a group's last owner. */
    mayRemove: (actor: Actor, s: Source, member: MemberRow) =>
      (actor.id === member.user_id || sources.canAdmin(actor, s)) &&
      mayChange(actor, s, member, member.access_level),

    /**
     * `Members::CreateService` for several users (`user_id=1,2` or `username=a,b`): unknown users are
     * left out, members get the level, others become members; a user the model refuses is named in
     * the result's message (`username: Full message`, as a sentence) and the rest are still made.
     * Owner of a project without `manage_owners`: 403 for all.
     */
    addMany(
      actor: Actor,
      s: Source,
      given: string,
      byUsername: boolean,
      level: number,
      expiresAt: string | null,
    ): MemberBulkResult {
      if (touchesOwner(actor, s, 0, level)) throw forbidden()
      const users = new Map<number, UserRow>()
      for (const item of given.split(',').map((x) => x.trim())) {
        const user = byUsername
          ? store.users.byUsername(item)
          : /^\d+$/.test(item)
            ? store.users.get(Number(item))
            : undefined
        if (user) users.set(user.id, user)
      }
      const problems: string[] = []
      store.transaction(() => {
        for (const user of users.values()) {
          const existing = sources.member(s, user.id)
          const errors = errorsOf(s, user.id, level, expiresAt)
          const messages = Object.entries(errors).flatMap(([key, list]) =>
            list.map((m) => `${key[0]!.toUpperCase()}${key.slice(1).replaceAll('_', ' ')} ${m}`),
          )
          if (existing && !mayChange(actor, s, existing, level))
            messages.push('not authorized to update member')
          if (messages.length > 0) {
            problems.push(`${user.username}: ${toSentence(messages)}`)
            continue
          }
          store.members.set(sourceType(s), s.row.id, user.id, level, existing?.created_at ?? isoNow(clock))
          store.members.setTerms(sourceType(s), s.row.id, user.id, expiresAt, actor.id)
        }
      })
      return problems.length > 0 ? { message: toSentence(problems), status: 'error' } : { status: 'success' }
    },
  }
}
