import { Type, type Static } from '@sinclair/typebox'
import { Nullable, PageQuery, Timestamp } from './common.js'

const flag = Type.Boolean()
const optionalFlag = (description: string) => Type.Optional(Type.Boolean({ description }))

/** `WebHooks::AutoDisabling#alert_status`. */
export const HookAlertStatus = Type.Union([
  Type.Literal('executable'),
  Type.Literal('temporarily_disabled'),
  Type.Literal('disabled'),
])

const keyValue = Type.Array(Type.Object({ key: Type.String(), value: Type.String() }))

/**
 * `Entities::Hook` (`lib/api/entities/hook.rb`): what project and group hooks open with. `named`: the
 * release has `name` and `description` (17.1 and later); `listed`: a list, which leaves out
 * `url_variables` and `custom_headers` (`with_url_variables: false`). Keys are required where shown, so
 * that the serializer keeps GitLab's order.
 */
const hookFields = (named: boolean, listed: boolean) => ({
  id: Type.Integer(),
  url: Type.String(),
  ...(named ? { name: Nullable(Type.String()), description: Nullable(Type.String()) } : {}),
  created_at: Timestamp,
  push_events: flag,
  tag_push_events: flag,
  merge_requests_events: flag,
  repository_update_events: flag,
  enable_ssl_verification: flag,
  alert_status: HookAlertStatus,
  disabled_until: Nullable(Timestamp),
  ...(listed ? {} : { url_variables: keyValue }),
  push_events_branch_filter: Nullable(Type.String()),
  branch_filter_strategy: Type.String(),
  custom_webhook_template: Nullable(Type.String()),
  ...(listed ? {} : { custom_headers: keyValue }),
})

/** The event switches both hook kinds share after `Entities::Hook`'s. */
const sharedEvents = {
  issues_events: flag,
  confidential_issues_events: flag,
  note_events: flag,
  confidential_note_events: flag,
  pipeline_events: flag,
  wiki_page_events: flag,
  deployment_events: flag,
  feature_flag_events: flag,
  job_events: flag,
  releases_events: flag,
  milestone_events: flag,
  emoji_events: flag,
  resource_access_token_events: flag,
  resource_deploy_token_events: flag,
}

/** `Entities::ProjectHook` (`lib/api/entities/project_hook.rb`) as a release shows it, in its key order. */
export const projectHookEntity = (named: boolean, listed: boolean) =>
  Type.Object(
    { ...hookFields(named, listed), project_id: Type.Integer(), ...sharedEvents, vulnerability_events: flag },
    { title: 'ProjectHook' },
  )

/** `EE::API::Entities::GroupHook` (`ee/lib/ee/api/entities/group_hook.rb`): a group's hook, EE only. */
export const groupHookEntity = (named: boolean, listed: boolean) =>
  Type.Object(
    {
      ...hookFields(named, listed),
      group_id: Type.Integer(),
      ...sharedEvents,
      subgroup_events: flag,
      member_events: flag,
      project_events: flag,
      vulnerability_events: flag,
    },
    { title: 'GroupHook' },
  )

/** The keys some releases or answers leave out. */
const releaseKeys = {
  name: Type.Optional(Nullable(Type.String())),
  description: Type.Optional(Nullable(Type.String())),
  url_variables: Type.Optional(keyValue),
  custom_headers: Type.Optional(keyValue),
}

/** A project hook as any release shows it (the client's check): the keys of some releases optional. */
export const ProjectHook = Type.Object(
  { ...projectHookEntity(false, true).properties, ...releaseKeys },
  { title: 'ProjectHook' },
)
export type ProjectHook = Static<typeof ProjectHook>

/** A group hook as any release shows it. */
export const GroupHook = Type.Object(
  { ...groupHookEntity(false, true).properties, ...releaseKeys },
  { title: 'GroupHook' },
)
export type GroupHook = Static<typeof GroupHook>

/** The parameters of `POST`/`PUT .../hooks` the server keeps (`lib/api/project_hooks.rb` `common_hook_parameters`). */
const hookParams = {
  name: Type.Optional(Type.String({ description: 'Name of the hook (17.1 and later)' })),
  description: Type.Optional(Type.String({ description: 'Description of the hook (17.1 and later)' })),
  push_events: optionalFlag('Trigger hook on push events'),
  push_events_branch_filter: Type.Optional(
    Type.String({ description: 'Trigger hook on push events for matching branches only' }),
  ),
  branch_filter_strategy: Type.Optional(
    Type.Union([Type.Literal('wildcard'), Type.Literal('regex'), Type.Literal('all_branches')], {
      description: 'How push_events_branch_filter matches branches',
    }),
  ),
  tag_push_events: optionalFlag('Trigger hook on tag push events'),
  issues_events: optionalFlag('Trigger hook on issues events'),
  confidential_issues_events: optionalFlag('Trigger hook on confidential issues events'),
  note_events: optionalFlag('Trigger hook on note (comment) events'),
  confidential_note_events: optionalFlag('Trigger hook on confidential note (comment) events'),
  job_events: optionalFlag('Trigger hook on job events'),
  pipeline_events: optionalFlag('Trigger hook on pipeline events'),
  deployment_events: optionalFlag('Trigger hook on deployment events'),
  enable_ssl_verification: optionalFlag('Do SSL verification when triggering the hook'),
  token: Type.Optional(
    Type.String({ description: 'Secret token to validate received payloads; never returned' }),
  ),
}

/** `POST /projects/:id/hooks`, `POST /groups/:id/hooks`: `url` is required. */
export const HookCreate = Type.Object({ url: Type.String(), ...hookParams })
export type HookCreate = Static<typeof HookCreate>

/** `PUT .../hooks/:hook_id`: at least one parameter (`No parameters provided` otherwise). */
export const HookUpdate = Type.Object({ url: Type.Optional(Type.String()), ...hookParams })
export type HookUpdate = Static<typeof HookUpdate>

/** The triggers `POST .../hooks/:hook_id/test/:trigger` accepts (`ProjectHook.triggers`). */
export const HOOK_TEST_TRIGGERS = [
  'push_events',
  'tag_push_events',
  'issues_events',
  'confidential_issues_events',
  'note_events',
  'confidential_note_events',
  'merge_requests_events',
  'job_events',
  'pipeline_events',
  'wiki_page_events',
  'deployment_events',
  'feature_flag_events',
  'releases_events',
  'milestone_events',
  'emoji_events',
  'resource_access_token_events',
  'resource_deploy_token_events',
  'vulnerability_events',
] as const

/** `Entities::WebHookLog` (`lib/api/entities/web_hook_log.rb`): one delivery of a hook. */
export const WebHookLog = Type.Object(
  {
    id: Type.Integer(),
    url: Type.String(),
    trigger: Type.String(),
    request_headers: Type.Record(Type.String(), Type.String()),
    request_data: Type.Unknown(),
    response_headers: Type.Record(Type.String(), Type.String()),
    response_body: Type.String(),
    execution_duration: Type.Number(),
    response_status: Type.String(),
  },
  { title: 'WebHookLog' },
)
export type WebHookLog = Static<typeof WebHookLog>

/** `GET .../hooks/:hook_id/events` (`lib/api/hooks/events.rb`): 20 a page at most. */
export const HookEventsQuery = Type.Object({
  ...PageQuery.properties,
  status: Type.Optional(
    Type.Array(Type.String(), {
      'x-grape': 'csv',
      description: 'HTTP statuses, or successful, client_failure, server_failure',
    }),
  ),
})
export type HookEventsQuery = Static<typeof HookEventsQuery>
