import { Type, type Static } from '@sinclair/typebox'

/** `lib/api/entities/user_agent_detail.rb`: what the creation request carried. */
export const UserAgentDetail = Type.Object(
  { user_agent: Type.String(), ip_address: Type.String(), akismet_submitted: Type.Boolean() },
  { title: 'UserAgentDetail' },
)
export type UserAgentDetail = Static<typeof UserAgentDetail>
