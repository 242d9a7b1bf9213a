#!/usr/bin/env node
// The CLI runs the bundled build in build/cli-bundle/ (made by `npm run build`, which `npm ci` runs
// as `prepare`; see scripts/bundle-cli.mjs).
import { main } from '../build/cli-bundle/main.js'

main(process.argv.slice(2)).then(
  (code) => {
    if (typeof code === 'number') process.exitCode = code
  },
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`)
    process.exitCode = 1
  },
)
