import { gemoji } from 'gemoji'

/*
 * Emoji names as `/award` reads them (`Banzai::Filter::EmojiFilter.emoji_pattern`: a known name
 * between colons, not glued to letters, digits or another colon). Chosen: the names are GitHub's
 * gemoji list; GitLab's TanukiEmoji index agrees on the common ones (`thumbsup`, `tada`, `eyes`).
 */

const NAMES = new Set(gemoji.flatMap((g) => g.names))
const CANDIDATE = /(?<=^|[^\p{L}\p{N}:]):([\w+-]+):(?=$|[^\p{L}\p{N}:])/gmu

/** The first known emoji name written as `:name:` in the argument. */
export function emojiName(param: string): string | undefined {
  for (const m of param.matchAll(CANDIDATE)) if (NAMES.has(m[1] as string)) return m[1]
  return undefined
}

/** Whether `name` is a known emoji name (`Gitlab::EmojiNameValidator`, without custom emoji). */
export const isEmojiName = (name: string) => NAMES.has(name)

/** `Gitlab::Emoji.normalize_emoji_name`: the aliases of the vote emoji become their names. */
export const normalizeEmojiName = (name: string) => ({ '+1': 'thumbsup', '-1': 'thumbsdown' })[name] ?? name
