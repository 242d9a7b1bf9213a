import { Type, type Static } from '@sinclair/typebox'
import { Nullable } from './common.js'

/** `GET /version` */
export const Version = Type.Object(
  {
    version: Type.String(),
    revision: Type.String(),
    kas: Type.Object({
      enabled: Type.Boolean(),
      externalUrl: Type.Null(),
      externalK8sProxyUrl: Type.Null(),
      version: Type.Null(),
    }),
    enterprise: Type.Boolean(),
  },
  { title: 'Version' },
)
export type Version = Static<typeof Version>
