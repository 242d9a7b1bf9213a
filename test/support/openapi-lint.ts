import { spawn } from 'node:child_process'
import { join } from 'node:path'

export interface LintProblem {
  severity: 'error' | 'warn'
  rule: string
  message: string
  at: string
}

/** Redocly's `recommended` lint of an OpenAPI document (test/support/openapi-lint-child.mjs), asynchronously. */
export function lintOpenApi(source: string): Promise<LintProblem[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(__dirname, 'openapi-lint-child.mjs')], {
      stdio: ['pipe', 'pipe', 'inherit'],
    })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out) as LintProblem[]) : reject(new Error(`lint exited ${code}`)),
    )
    child.stdin.end(source)
  })
}
