// Part of scripts/bundle-cli.mjs: build/cli-bundle/serve.cjs must be ASCII. Memory after start:
// src/cli/serve-script.ts reads the 2.1 MB script into a string that V8 keeps for the life of the
// process (functions compile from it when first called). Node makes a string of that size from
// ASCII bytes with one byte per character; a single character outside ASCII (a `·` in a tagged
// template, which esbuild cannot escape, or a licence comment's name) makes it two bytes per
// character for the whole script, 2.1 MB more. esbuild escapes other strings itself
// (`charset: 'ascii'`, its default); the serve build moves licence comments to serve.cjs.LEGAL.txt.
import { readFileSync } from 'node:fs'

/** Throws, naming where, when `file` holds a byte outside ASCII. */
export function assertAscii(file) {
  const bytes = readFileSync(file)
  const at = bytes.findIndex((b) => b > 0x7f)
  if (at < 0) return
  const text = bytes.toString('utf8', Math.max(0, at - 80), at + 40)
  throw new Error(
    `${file} holds a character outside ASCII at byte ${at}, which doubles the memory of its source ` +
      `(scripts/one-byte-source.mjs); write it as an escape or an HTML entity:\n${text}`,
  )
}
