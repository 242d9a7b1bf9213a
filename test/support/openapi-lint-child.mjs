// Lints the OpenAPI document on stdin with Redocly's `recommended` rules, in-process and offline,
// and prints the problems as JSON. A separate Node process: @redocly/openapi-core is ESM only,
// which Jest's CommonJS runtime cannot load (test/support/openapi-lint.ts runs this).
import { createConfig, lintFromString } from '@redocly/openapi-core'

let source = ''
for await (const chunk of process.stdin) source += chunk
const config = await createConfig({ extends: ['recommended'] })
const problems = await lintFromString({ source, config })
process.stdout.write(
  JSON.stringify(
    problems.map((p) => ({
      severity: p.severity,
      rule: p.ruleId,
      message: p.message,
      at: p.location[0]?.pointer ?? '',
    })),
  ),
)
