import { Type, type Static } from '@sinclair/typebox'
import { Nullable, Timestamp, UserBasic } from './common.js'
import { hashParam, nonBlankString } from './params.js'

/**
 * `Entities::Trigger` (`lib/api/entities/trigger.rb`): a pipeline trigger token. `token` is whole (`glptt-` +
 * 40 hex) for its owner and administrators, GitLab's four-character short form for everyone else.
 */
export const Trigger = Type.Object(
  {
    id: Type.Integer(),
    token: Type.String(),
    description: Type.String(),
    created_at: Timestamp,
    updated_at: Timestamp,
    last_used: Nullable(Timestamp),
    expires_at: Nullable(Timestamp),
    owner: Nullable(UserBasic),
  },
  { title: 'Trigger' },
)
export type Trigger = Static<typeof Trigger>

/** `POST /projects/:id/triggers`. */
export const TriggerCreate = Type.Object({ description: Type.String() })
export type TriggerCreate = Static<typeof TriggerCreate>

/** `PUT /projects/:id/triggers/:trigger_id`. */
export const TriggerUpdate = Type.Object({ description: Type.Optional(Type.String()) })
export type TriggerUpdate = Static<typeof TriggerUpdate>

/** Variables of a triggered pipeline: `variables[NAME]=value` in a form or query, or a JSON object. */
const variables = Type.Optional(hashParam({ description: 'variables[NAME]=value' }))

/** Pipeline `inputs` (GitLab 17.10 and later): `inputs[name]=value` in a form, or a JSON object with typed values. */
const inputs = Type.Optional(hashParam({ description: 'inputs[name]=value, checked against spec:inputs' }))

/** `POST /projects/:id/trigger/pipeline` (`lib/api/ci/triggers.rb`). */
export const TriggerPipeline = Type.Object({
  ref: nonBlankString({ description: 'branch or tag' }),
  token: Type.String({ description: 'a trigger token or a CI/CD job token of a running job' }),
  variables,
  inputs,
})
export type TriggerPipeline = Static<typeof TriggerPipeline>

/** `POST /projects/:id/ref/:ref/trigger/pipeline`: the ref comes from the path. */
export const TriggerPipelineAtRef = Type.Object({ token: Type.String(), variables, inputs })
