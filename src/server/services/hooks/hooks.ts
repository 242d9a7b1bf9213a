import type { GroupHook, HookCreate, HookUpdate, ProjectHook, WebHookLog } from '../../../schema/index.js'
import { isoNow } from '../../domain/clock.js'
import { branchFilterError, type BranchFilterStrategy } from '../../domain/branch-filter.js'
import { applies } from '../../domain/releases.js'
import { alertStatus } from '../../domain/web-hook-failures.js'
import { forbidden, messageError, recordNotFound, unauthorized } from '../../grape/gitlab-errors.js'
import type { HookDelivery } from '../../jobs/hook-delivery.js'
import { BlockedUrlError, checkUrl } from '../../outbound/outbound-url.js'
import type { NamespaceRow } from '../../store/namespaces.js'
import type { ProjectRow } from '../../store/projects.js'
import { HOOK_EVENTS, type LogFilter, type WebHookFields, type WebHookRow } from '../../store/web-hooks.js'
import { type Actor, Level } from '../access.js'
import type { ServiceContext } from '../context.js'
import type { HookEvents } from './events.js'

/** A hook's owner: a project (Maintainer) or, on EE, a group (Owner). */
export type HookOwner = { project: ProjectRow } | { group: NamespaceRow }

const bool = (v: number) => v === 1
/** `WebHookLog::MAX_RECENT_DAYS`: how far back the delivery log lists. */
const RECENT_DAYS = 7
const flag = (v: boolean | undefined, was: number) => (v === undefined ? was : v ? 1 : 0)

/**
 * Project hooks (`lib/api/project_hooks.rb`) and group hooks (`ee/lib/api/group_hooks.rb`): list, read,
 * add, edit, remove, test, and the delivery log (`lib/api/hooks/events.rb`). `url` must pass
 * `Gitlab::UrlBlocker` (http or https; local addresses only with `--allow-local-requests`), else 422
 * `Invalid url given`; the token is sealed and never shown; a new `url` without a new token drops the
 * token (`WebHook#reset_token`).
 */
export function hookService(
  ctx: ServiceContext,
  delivery: HookDelivery,
  events: HookEvents,
  allowLocal: boolean,
) {
  const { store, access, instance, clock } = ctx
  const named = () => applies(instance.version, 'webhookNames')

  /** `authenticate!`, then `admin_web_hook` on the project (Maintainer) or `admin_group` (Owner). */
  const authorize = (actor: Actor, owner: HookOwner) => {
    if (!actor.user) throw unauthorized()
    const allowed =
      'project' in owner
        ? access.atLeast(actor, owner.project, Level.maintainer)
        : actor.admin || access.groupLevel(actor, owner.group) >= Level.owner
    if (!allowed) throw forbidden()
  }
  const find = (owner: HookOwner, id: number): WebHookRow => {
    const row = store.webHooks.get(id)
    const mine =
      row && ('project' in owner ? row.project_id === owner.project.id : row.group_id === owner.group.id)
    if (!mine) throw recordNotFound()
    return row
  }
  const validUrl = (url: string) => {
    try {
      checkUrl(url, ['http', 'https'], allowLocal)
    } catch (err) {
      if (err instanceof BlockedUrlError) throw messageError(422, 'Invalid url given')
      throw err
    }
  }

  /** `WebHooks::CreateService` / `save_hook`: 422 `Invalid branch filter given` for a filter GitLab refuses. */
  const validFilter = (next: WebHookFields): WebHookFields => {
    const filter = next.push_events_branch_filter
    const strategy = next.branch_filter_strategy as BranchFilterStrategy
    if (filter === null) return next
    if (branchFilterError(filter, strategy) !== undefined)
      throw messageError(422, 'Invalid branch filter given')
    // The wildcard validator squishes the filter it checks (`value.squish!`), and so what is stored.
    return strategy === 'wildcard'
      ? { ...next, push_events_branch_filter: filter.trim().replace(/\s+/g, ' ') }
      : next
  }

  /** `Entities::ProjectHook` / `GroupHook`; lists leave out `url_variables` and `custom_headers`. */
  function present(row: WebHookRow, inList = false): ProjectHook | GroupHook {
    const common = {
      id: row.id,
      url: row.url,
      ...(named() ? { name: row.name, description: row.description } : {}),
      created_at: row.created_at,
      push_events: bool(row.push_events),
      tag_push_events: bool(row.tag_push_events),
      merge_requests_events: false,
      repository_update_events: false,
      enable_ssl_verification: bool(row.enable_ssl_verification),
      alert_status: alertStatus(row, clock.now()),
      disabled_until: row.disabled_until,
      ...(inList ? {} : { url_variables: [] }),
      push_events_branch_filter: row.push_events_branch_filter,
      branch_filter_strategy: row.branch_filter_strategy,
      custom_webhook_template: null,
      ...(inList ? {} : { custom_headers: [] }),
    }
    const shared = {
      issues_events: bool(row.issues_events),
      confidential_issues_events: bool(row.confidential_issues_events),
      note_events: bool(row.note_events),
      confidential_note_events: bool(row.confidential_note_events),
      pipeline_events: bool(row.pipeline_events),
      wiki_page_events: false,
      deployment_events: bool(row.deployment_events),
      feature_flag_events: false,
      job_events: bool(row.job_events),
      releases_events: false,
      milestone_events: false,
      emoji_events: false,
      resource_access_token_events: false,
      resource_deploy_token_events: false,
    }
    if (row.project_id !== null)
      return {
        ...common,
        project_id: row.project_id,
        ...shared,
        vulnerability_events: false,
      } satisfies ProjectHook
    const groupOnly = { subgroup_events: false, member_events: false, project_events: false }
    return {
      ...common,
      group_id: row.group_id!,
      ...shared,
      ...groupOnly,
      vulnerability_events: false,
    } satisfies GroupHook
  }

  /** The columns an input sets over `was` (a new hook's defaults: push events on, SSL verification on). */
  function fields(input: HookUpdate, was: WebHookFields): WebHookFields {
    const next = { ...was }
    if (input.url !== undefined) next.url = input.url
    for (const e of HOOK_EVENTS) next[e] = flag(input[e], was[e])
    next.enable_ssl_verification = flag(input.enable_ssl_verification, was.enable_ssl_verification)
    if (input.branch_filter_strategy !== undefined) next.branch_filter_strategy = input.branch_filter_strategy
    if (input.push_events_branch_filter !== undefined)
      next.push_events_branch_filter = input.push_events_branch_filter
    // `WebHook#set_branch_filter_nil`: all branches keep no filter.
    if (next.branch_filter_strategy === 'all_branches') next.push_events_branch_filter = null
    if (input.token !== undefined)
      next.token_encrypted = input.token === '' ? null : store.secrets.seal(input.token)
    else if (input.url !== undefined && input.url !== was.url) next.token_encrypted = null
    if (named()) {
      if (input.name !== undefined) next.name = input.name
      if (input.description !== undefined) next.description = input.description
    }
    return next
  }

  const ownerColumns = (owner: HookOwner) =>
    'project' in owner
      ? { project_id: owner.project.id, group_id: null }
      : { project_id: null, group_id: owner.group.id }

  return {
    list(actor: Actor, owner: HookOwner, limit: number, offset: number) {
      authorize(actor, owner)
      const rows =
        'project' in owner
          ? store.webHooks.ofProject(owner.project.id, limit, offset)
          : store.webHooks.ofGroup(owner.group.id, limit, offset)
      const total =
        'project' in owner
          ? store.webHooks.countOfProject(owner.project.id)
          : store.webHooks.countOfGroup(owner.group.id)
      return { items: rows.map((r) => present(r, true)), total }
    },

    get(actor: Actor, owner: HookOwner, id: number) {
      authorize(actor, owner)
      return present(find(owner, id))
    },

    create(actor: Actor, owner: HookOwner, input: HookCreate) {
      authorize(actor, owner)
      validUrl(input.url)
      const defaults: WebHookFields = {
        url: input.url,
        token_encrypted: null,
        name: null,
        description: null,
        push_events: 1,
        issues_events: 0,
        confidential_issues_events: 0,
        note_events: 0,
        confidential_note_events: 0,
        pipeline_events: 0,
        job_events: 0,
        tag_push_events: 0,
        deployment_events: 0,
        enable_ssl_verification: 1,
        push_events_branch_filter: null,
        branch_filter_strategy: 'wildcard',
        created_at: isoNow(clock),
      }
      const next = validFilter(fields(input, defaults))
      const id = store.webHooks.insert(ownerColumns(owner), next)
      return present(store.webHooks.get(id)!)
    },

    /** 400 `No parameters provided` for an empty edit (`update_hook_params`). */
    update(actor: Actor, owner: HookOwner, id: number, input: HookUpdate) {
      authorize(actor, owner)
      const row = find(owner, id)
      const given = Object.entries(input).filter(
        ([k, v]) => v !== undefined && (named() || (k !== 'name' && k !== 'description')),
      )
      if (given.length === 0) throw messageError(400, 'No parameters provided')
      if (input.url !== undefined) validUrl(input.url)
      store.webHooks.update(row.id, validFilter(fields(input, row)))
      return present(store.webHooks.get(row.id)!)
    },

    remove(actor: Actor, owner: HookOwner, id: number): void {
      authorize(actor, owner)
      store.webHooks.remove(find(owner, id).id)
    },

    /**
     * `POST .../hooks/:hook_id/test/:trigger` (`lib/api/hooks/trigger_test.rb`, `TestHooks::ProjectService`):
     * the newest sample of the trigger's kind sent now, even to a disabled hook; 201 when the receiver answers
     * 2xx, else 422 with its body (or the error), as `WebHookService#execute` reports it.
     */
    async test(actor: Actor, owner: HookOwner, id: number, trigger: string): Promise<void> {
      authorize(actor, owner)
      const hook = find(owner, id)
      const project = 'project' in owner ? owner.project : undefined
      const sample = events.sample(actor, project, trigger)
      const result = await delivery.test(hook, sample.hookName, sample.payload)
      if (result.status === undefined || result.status < 200 || result.status > 299)
        throw messageError(422, result.message)
    },

    /** The emulator page's view (administrators): the first 50 hooks and the newest 20 deliveries. */
    overview(actor: Actor) {
      if (!actor.admin) throw forbidden()
      const now = clock.now()
      return {
        hooks: store.webHooks.overview(50).map((h) => ({ ...h, alert_status: alertStatus(h, now) })),
        deliveries: store.webHooks.recentLogs(20),
      }
    },

    /**
     * `GET .../hooks/:hook_id/events` (`WebHooks::WebHookLogsFinder`): the last seven days' deliveries
     * (`WebHookLog::MAX_RECENT_DAYS`), newest first, at most 20 a page; `status` keeps those of these
     * codes or classes (`successful` 2xx, `client_failure` 4xx, `server_failure` 5xx and internal errors).
     */
    events(
      actor: Actor,
      owner: HookOwner,
      id: number,
      status: string[] | undefined,
      limit: number,
      offset: number,
    ) {
      authorize(actor, owner)
      const hook = find(owner, id)
      const filter: LogFilter = {
        since: new Date(clock.now().getTime() - RECENT_DAYS * 86_400_000).toISOString(),
        codes: [],
        ranges: [],
      }
      for (const s of status ?? []) {
        if (s === 'successful') filter.ranges.push([200, 299])
        else if (s === 'client_failure') filter.ranges.push([400, 499])
        else if (s === 'server_failure') {
          filter.ranges.push([500, 599])
          filter.codes.push('internal error')
        } else filter.codes.push(s)
      }
      const items: WebHookLog[] = store.webHooks.logs(hook.id, filter, limit, offset).map((l) => ({
        id: l.id,
        url: l.url,
        trigger: l.trigger,
        request_headers: JSON.parse(l.request_headers) as Record<string, string>,
        request_data: JSON.parse(l.request_data) as unknown,
        response_headers: JSON.parse(l.response_headers) as Record<string, string>,
        response_body: l.response_body,
        execution_duration: l.execution_duration,
        response_status: l.response_status,
      }))
      return { items, total: store.webHooks.countLogs(hook.id, filter) }
    },
  }
}
export type HookService = ReturnType<typeof hookService>
