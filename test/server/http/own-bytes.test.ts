import { ownBytes, ownJsonArray } from '../../../src/server/http/own-bytes.js'

/*
 * `ownBytes` (src/server/http/own-bytes.ts): the UTF-8 bytes of texts, in memory of their own (no
 * slice of a shared pool or of its own room for encoding), whatever characters they hold.
 */
describe('ownBytes', () => {
  const texts = [
    ['[', '{"title":"plain"}', ',', '{"title":"é ñ ü"}', ']'],
    ['日本語のタイトル', '🚀 and 👍🏽', ''],
    ['a lone surrogate \ud800 and \udc00', 'x'],
    [],
    ['y'.repeat(30_000), '€'.repeat(10_000)], // more than the room first kept
    ['x'.repeat(400_000), 'é'.repeat(200_000)], // past the room kept for encoding
  ]

  it.each(texts.map((t, i) => [i, t] as const))('encodes texts %i as Buffer.from does', (_i, parts) => {
    const bytes = ownBytes(...parts)
    expect(bytes.equals(Buffer.from(parts.join('')))).toBe(true)
    expect([bytes.byteOffset, bytes.buffer.byteLength]).toEqual([0, bytes.length])
  })

  it('keeps each answer apart from the next', () => {
    const first = ownBytes('{"n":1}')
    const second = ownBytes('{"n":2}', 'more')
    expect([first.toString(), second.toString()]).toEqual(['{"n":1}', '{"n":2}more'])
    expect(first.buffer).not.toBe(second.buffer)
  })
})

describe('ownJsonArray', () => {
  const lists = [
    [],
    ['{"n":1}'],
    ['{"title":"é ñ ü"}', '{"title":"🚀 and 👍🏽"}', '{"title":"a lone surrogate \ud800"}'],
    ['"' + 'y'.repeat(200_000) + '"', '"' + '€'.repeat(200_000) + '"'], // past the room kept for encoding
  ]

  it.each(lists.map((l, i) => [i, l] as const))('writes list %i as Buffer.from of `[a,b]`', (_i, items) => {
    const bytes = ownJsonArray(items)
    expect(bytes.equals(Buffer.from(`[${items.join(',')}]`))).toBe(true)
    expect([bytes.byteOffset, bytes.buffer.byteLength]).toEqual([0, bytes.length])
  })
})
