import { Type, type Static } from '@sinclair/typebox'
import { Nullable } from './common.js'

/** `GET /version` */
export const Version = Type.Object(
  {
    version: Type.String(),
    revision: Type.String(),
    kas: Type.Object({
      enabled: Type.Boolean(),
      externalUrl: Nullable(Type.String()),
      externalK8sProxyUrl: Nullable(Type.String()),
      version: Nullable(Type.String()),
    }),
    enterprise: Type.Boolean(),
  },
  { title: 'Version' },
)
export type Version = Static<typeof Version>
