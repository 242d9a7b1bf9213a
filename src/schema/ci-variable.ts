import { Type, type Static } from '@sinclair/typebox'
import { Nullable } from './common.js'
import { boolParam } from './params.js'

/** `Ci::Variable.variable_types`: a plain environment variable, or a file whose path is the variable. */
export const CiVariableType = Type.Union([Type.Literal('env_var'), Type.Literal('file')])
export type CiVariableType = Static<typeof CiVariableType>

/**
 * `Entities::Ci::Variable` (`lib/api/entities/ci/variable.rb`) of a project variable. `value` is null
 * for a hidden one (`masked_and_hidden` at creation): nobody reads it back through the API.
 */
export const CiVariable = Type.Object(
  {
    variable_type: CiVariableType,
    key: Type.String(),
    value: Nullable(Type.String()),
    hidden: Type.Boolean(),
    protected: Type.Boolean(),
    masked: Type.Boolean(),
    raw: Type.Boolean(),
    environment_scope: Type.String(),
    description: Nullable(Type.String()),
  },
  { title: 'CiVariable' },
)
export type CiVariable = Static<typeof CiVariable>

/** `filter[environment_scope]`: which of a key's variables a read, edit or delete means. */
const filter = Type.Optional(Type.Object({ environment_scope: Type.Optional(Type.String()) }))

/** What a create or an edit may set (`lib/api/ci/variables.rb`). */
const settable = {
  value: Type.String(),
  protected: Type.Optional(boolParam()),
  masked: Type.Optional(boolParam()),
  raw: Type.Optional(boolParam()),
  variable_type: Type.Optional(CiVariableType),
  environment_scope: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
}

/** `POST /projects/:id/variables`; `masked_and_hidden` makes it masked and its value unreadable for good. */
export const CiVariableCreate = Type.Object({
  key: Type.String(),
  ...settable,
  masked_and_hidden: Type.Optional(boolParam()),
})
export type CiVariableCreate = Static<typeof CiVariableCreate>

/** `PUT /projects/:id/variables/:key`: the key comes from the path. */
export const CiVariableUpdate = Type.Object({ ...settable, value: Type.Optional(Type.String()), filter })
export type CiVariableUpdate = Static<typeof CiVariableUpdate>

/** `GET` and `DELETE /projects/:id/variables/:key`. */
export const CiVariableQuery = Type.Object({ filter })
export type CiVariableQuery = Static<typeof CiVariableQuery>

/**
 * `Entities::Ci::Variable` of an instance variable (`lib/api/admin/ci/variables.rb`): `Ci::InstanceVariable`
 * has no `hidden` and no `environment_scope`, so the entity leaves them out.
 */
export const CiInstanceVariable = Type.Object(
  {
    variable_type: CiVariableType,
    key: Type.String(),
    value: Type.String(),
    protected: Type.Boolean(),
    masked: Type.Boolean(),
    raw: Type.Boolean(),
    description: Nullable(Type.String()),
  },
  { title: 'CiInstanceVariable' },
)
export type CiInstanceVariable = Static<typeof CiInstanceVariable>

/** `POST /admin/ci/variables`: no environment scope, no hiding. */
export const CiInstanceVariableCreate = Type.Omit(CiVariableCreate, [
  'environment_scope',
  'masked_and_hidden',
])
export type CiInstanceVariableCreate = Static<typeof CiInstanceVariableCreate>

/** `PUT /admin/ci/variables/:key`. */
export const CiInstanceVariableUpdate = Type.Omit(CiVariableUpdate, ['environment_scope', 'filter'])
export type CiInstanceVariableUpdate = Static<typeof CiInstanceVariableUpdate>
