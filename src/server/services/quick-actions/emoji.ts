import { EMOJI_NAMES } from './emoji-names.js'

/*
 * Emoji names as `/award` reads them (`Banzai::Filter::EmojiFilter.emoji_pattern`: a known name
 * between colons, not glued to letters, digits or another colon). Chosen: the names are GitHub's
 * gemoji list (emoji-names.ts); GitLab's TanukiEmoji index agrees on the common ones (`thumbsup`, `tada`, `eyes`).
 */

let names: Set<string> | undefined
/** The names, made into a set when first asked for (most runs never are). */
const known = (name: string) => (names ??= new Set(EMOJI_NAMES.split(/\s+/).filter(Boolean))).has(name)
const CANDIDATE = /(?<=^|[^\p{L}\p{N}:]):([\w+-]+):(?=$|[^\p{L}\p{N}:])/gmu

/** The first known emoji name written as `:name:` in the argument. */
export function emojiName(param: string): string | undefined {
  for (const m of param.matchAll(CANDIDATE)) if (known(m[1] as string)) return m[1]
  return undefined
}

/** Whether `name` is a known emoji name (`Gitlab::EmojiNameValidator`, without custom emoji). */
export const isEmojiName = (name: string) => known(name)

/** `Gitlab::Emoji.normalize_emoji_name`: the aliases of the vote emoji become their names. */
export const normalizeEmojiName = (name: string) => ({ '+1': 'thumbsup', '-1': 'thumbsdown' })[name] ?? name
