import { Type, type Static } from '@sinclair/typebox'
import { Nullable, Timestamp } from './common.js'
import { csvParam } from './params.js'

/**
 * `POST /runners/reset_registration_token` and its project and group forms: GitLab's
 * `Entities::Ci::ResetTokenResult`, whose `token_expires_at` is exposed only for expirable tokens;
 * registration tokens never expire, so the body is `{"token": ...}` alone.
 */
export const RegistrationTokenReset = Type.Object(
  { token: Type.String() },
  { title: 'RegistrationTokenReset' },
)
export type RegistrationTokenReset = Static<typeof RegistrationTokenReset>

/** `POST /runners`: GitLab's `Entities::Ci::RunnerRegistrationDetails`. */
export const RunnerRegistration = Type.Object(
  { id: Type.Integer(), token: Type.String(), token_expires_at: Nullable(Timestamp) },
  { title: 'RunnerRegistration' },
)
export type RunnerRegistration = Static<typeof RunnerRegistration>

const deprecated = (description: string) => ({ description, deprecated: true })

/**
 * `POST /runners` parameters (GitLab's `lib/api/ci/runner.rb`): `token` is a registration token.
 * Deprecated since 15.6; the registration-token flow answers 410 from 17.0 (GitLab's doc/api/runners.md).
 */
export const RunnerRegister = Type.Object(
  {
    token: Type.String({ description: 'registration token (instance, group or project)' }),
    description: Type.Optional(Type.String()),
    maintainer_note: Type.Optional(Type.String(deprecated('use maintenance_note'))),
    maintenance_note: Type.Optional(Type.String()),
    info: Type.Optional(
      Type.Object({
        name: Type.Optional(Type.String()),
        version: Type.Optional(Type.String()),
        revision: Type.Optional(Type.String()),
        platform: Type.Optional(Type.String()),
        architecture: Type.Optional(Type.String()),
      }),
    ),
    active: Type.Optional(Type.Boolean(deprecated('use paused'))),
    paused: Type.Optional(Type.Boolean()),
    locked: Type.Optional(Type.Boolean()),
    access_level: Type.Optional(Type.Union([Type.Literal('not_protected'), Type.Literal('ref_protected')])),
    run_untagged: Type.Optional(Type.Boolean()),
    tag_list: Type.Optional(csvParam()),
    maximum_timeout: Type.Optional(Type.Integer()),
  },
  {
    title: 'RunnerRegister',
    'x-mutually-exclusive': [
      ['maintainer_note', 'maintenance_note'],
      ['active', 'paused'],
    ],
  },
)
export type RunnerRegister = Static<typeof RunnerRegister>
