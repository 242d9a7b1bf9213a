import { gemoji } from 'gemoji'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { EMOJI_NAMES } from '../../../src/server/services/quick-actions/emoji-names.js'
import { emojiName, isEmojiName } from '../../../src/server/services/quick-actions/emoji.js'

/*
 * The emoji names the server accepts are gemoji's, written out (src/server/services/quick-actions/
 * emoji-names.ts) so that a start does not evaluate the package: the list must be the package's,
 * name for name, for the version it says.
 */
describe('the emoji names', () => {
  it("are gemoji's, in its order", () => {
    const version = (
      JSON.parse(readFileSync(join(require.resolve('gemoji'), '../package.json'), 'utf8')) as {
        version: string
      }
    ).version
    const { version: named } = /gemoji (?<version>\S+) /.exec(
      readFileSync(join(__dirname, '../../../src/server/services/quick-actions/emoji-names.ts'), 'utf8'),
    )!.groups!
    expect(named).toBe(version)
    expect(EMOJI_NAMES.trim().split(/\s+/)).toEqual(gemoji.flatMap((g) => g.names))
  })

  it('are what award emoji and /award accept', () => {
    expect([isEmojiName('thumbsup'), isEmojiName('+1'), isEmojiName('england'), isEmojiName('nope')]).toEqual(
      [true, true, true, false],
    )
    expect(emojiName('/award :tada: and :eyes:')).toBe('tada')
    expect(emojiName(':not_an_emoji: :grinning:')).toBe('grinning')
  })
})
