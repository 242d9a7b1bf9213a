// `npm run docs`: writes action.yml files and README tables from src/actions (see action-files.ts).
// `npm run docs -- --check` only reports files that differ, and exits 1 when any does.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { generatedFiles } from '../src/actions/action-files.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const check = process.argv.includes('--check')
const files = await generatedFiles(root, readFileSync(join(root, 'README.md'), 'utf8'))
let stale = 0
for (const [path, text] of Object.entries(files)) {
  const file = join(root, path)
  if ((existsSync(file) ? readFileSync(file, 'utf8') : undefined) === text) continue
  stale++
  if (check) process.stderr.write(`${path} is stale: run npm run docs\n`)
  else {
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, text)
    process.stdout.write(`wrote ${path}\n`)
  }
}
if (check && stale) process.exitCode = 1
