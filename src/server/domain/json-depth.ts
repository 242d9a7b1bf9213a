/**
 * Nesting limits checked before `JSON.parse`, which has none: 40 million `[` make V8 build 2.8 GB
 * of nested arrays before it finds the document unclosed.
 *
 * - Request bodies: GitLab's `Gitlab::Middleware::JsonValidation` (lib/gitlab/middleware/json_validation.rb)
 *   refuses a JSON body nested deeper than `GITLAB_JSON_MAX_DEPTH` (default 32), before Grape parses it.
 * - Archive documents: Ruby JSON's `max_nesting` of 100, which `NdjsonReader` reports as
 *   `Incorrect JSON format` (lib/gitlab/import_export/json/ndjson_reader.rb).
 */
export const MAX_BODY_DEPTH = 32
export const MAX_DOCUMENT_DEPTH = 100

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d

/**
 * True when `text` opens more than `max` arrays or objects inside one another. One linear pass,
 * no allocation, stopping at the first level too deep; brackets inside strings (escapes included)
 * do not count. Says nothing about whether the rest is valid JSON: the parser decides that.
 */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === BACKSLASH) i++
      else if (c === QUOTE) inString = false
    } else if (c === QUOTE) inString = true
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--
  }
  return false
}
