import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

/**
 * A fenced `sh` block of README.md or docs/*.md, with the runner its `<!-- run: ... -->` line names:
 * `project` (test/delivery/package.test.ts runs it in a project that installed the packed tarball),
 * `ci` (.ci/run runs each of its commands), or `none (why)`; `''` when the line is missing.
 */
export interface DocBlock {
  file: string
  line: number
  runner: string
  code: string
}

const BLOCK = /(?:<!-- run: (.+?) -->\n)?```(?:sh|bash|shell|console)\n([\s\S]*?)```/g

export function docBlocks(root: string): DocBlock[] {
  const files = ['README.md', ...readdirSync(join(root, 'docs')).map((f) => `docs/${f}`)]
  return files
    .filter((file) => file.endsWith('.md'))
    .flatMap((file) => {
      const text = readFileSync(join(root, file), 'utf8')
      return [...text.matchAll(BLOCK)].map((m) => ({
        file,
        line: text.slice(0, m.index).split('\n').length,
        runner: m[1] ?? '',
        code: m[2] ?? '',
      }))
    })
}
