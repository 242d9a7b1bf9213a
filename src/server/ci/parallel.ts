import type { CompiledJob } from './job-entry.js'
import { isHash } from './yaml-documents.js'

/*
 * `parallel:` (`Gitlab::Ci::Config::Normalizer`, `NumberStrategy`, `MatrixStrategy`): a job runs as N
 * copies named `name 1/N` ... `name N/N`, or one per combination of a matrix, named `name: [a, b]` with
 * the combination's variables; a `needs:` naming the job waits for every copy.
 */

/** GitLab's bounds (`Entry::Product::Parallel`: 1 to 200 copies, at most 200 combinations). */
const MAX_PARALLEL = 200

/** The copies of a job's `parallel:`; throws GitLab's message for a value it refuses. */
function copies(name: string, parallel: unknown): { name: string; variables: Record<string, string> }[] {
  if (typeof parallel === 'number') {
    if (!Number.isInteger(parallel) || parallel < 1 || parallel > MAX_PARALLEL)
      throw new Error(`jobs:${name}:parallel config must be less than or equal to ${MAX_PARALLEL}`)
    return Array.from({ length: parallel }, (_, i) => ({
      name: `${name} ${i + 1}/${parallel}`,
      variables: {},
    }))
  }
  const matrix = isHash(parallel) ? parallel.matrix : undefined
  if (!Array.isArray(matrix) || !matrix.every(isHash))
    throw new Error(`jobs:${name}:parallel should be an integer or a hash`)
  const out: { name: string; variables: Record<string, string> }[] = []
  for (const row of matrix as Record<string, unknown>[]) {
    let combos: Record<string, string>[] = [{}]
    for (const [key, value] of Object.entries(row)) {
      const values = (Array.isArray(value) ? value : [value]).map(String)
      combos = combos.flatMap((c) => values.map((v) => ({ ...c, [key]: v })))
    }
    for (const c of combos) out.push({ name: `${name}: [${Object.values(c).join(', ')}]`, variables: c })
  }
  if (out.length > MAX_PARALLEL)
    throw new Error(
      `jobs:${name}:parallel:matrix config generates too many jobs (maximum is ${MAX_PARALLEL})`,
    )
  return out
}

/** The jobs with every `parallel:` job expanded into its copies, and `needs:` of it pointing at all of them. */
export function expandParallel(jobs: CompiledJob[], parallel: Map<string, unknown>): CompiledJob[] {
  if (parallel.size === 0) return jobs
  const names = new Map<string, string[]>()
  const out: CompiledJob[] = []
  for (const job of jobs) {
    const spec = parallel.get(job.name)
    if (spec === undefined) {
      out.push(job)
      continue
    }
    const made = copies(job.name, spec)
    names.set(
      job.name,
      made.map((m) => m.name),
    )
    for (const m of made)
      out.push({
        ...job,
        name: m.name,
        definition: { ...job.definition, variables: { ...job.definition.variables, ...m.variables } },
      })
  }
  const expand = (list: string[]) => list.flatMap((n) => names.get(n) ?? [n])
  return out.map((job) => ({
    ...job,
    optionalNeeds: expand(job.optionalNeeds),
    definition: job.definition.needs
      ? { ...job.definition, needs: expand(job.definition.needs) }
      : job.definition,
  }))
}
