import { Type, type Static } from '@sinclair/typebox'
import { Nullable, Timestamp, UserBasic } from './common.js'

/** `Entities::AwardEmoji` (`lib/api/entities/award_emoji.rb`): an emoji awarded to an issue or a note. */
export const AwardEmoji = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    user: UserBasic,
    created_at: Timestamp,
    updated_at: Timestamp,
    awardable_id: Type.Integer(),
    awardable_type: Type.String({ description: 'Issue or Note' }),
    url: Nullable(Type.String({ description: 'custom emoji only' })),
  },
  { title: 'AwardEmoji' },
)
export type AwardEmoji = Static<typeof AwardEmoji>

/** `POST .../award_emoji` (`lib/api/award_emoji.rb`). */
export const AwardEmojiCreate = Type.Object(
  { name: Type.String({ description: 'the emoji name, without colons' }) },
  { title: 'AwardEmojiCreate' },
)
export type AwardEmojiCreate = Static<typeof AwardEmojiCreate>
