import { join } from 'node:path'
import { isFile, readNdjson, readProjectJson, TreeError } from '../archive/ndjson-reader.js'
import { collectAfterHeavyLine } from '../archive/garbage.js'
import { atLeast } from '../domain/releases.js'
import type { Store } from '../store/index.js'
import type { ImportWriter } from '../store/imports.js'
import type { UserRow } from '../store/users.js'
import {
  RelationError,
  restoreIssue,
  restoreLabel,
  restoreMergeRequest,
  restoreMilestone,
  restoreProtectedTag,
  type RestoreContext,
} from './import-relations.js'
import { importLookups } from './import-lookups.js'
import { mapMembers } from './import-users.js'

const VISIBILITY: Record<number, string> = { 0: 'private', 10: 'internal', 20: 'public' }
const VISIBILITIES = new Set(['private', 'internal', 'public'])

/** The relations we restore, in GitLab's tree order (members are read first, for user mapping). */
const RELATIONS: [string, (c: RestoreContext, line: unknown) => unknown][] = [
  ['labels', restoreLabel],
  ['milestones', restoreMilestone],
  ['issues', restoreIssue],
  ['merge_requests', restoreMergeRequest],
  ['protected_tags', restoreProtectedTag],
]

export interface RestoreJob {
  store: Store
  gitlabVersion: string
  projectId: number
  importer: UserRow
  correlationId: string
  /** The extracted archive's `tree/` folder. */
  treeDir: string
  overrideParams: Record<string, unknown>
  now: () => string
  aborted: () => boolean
}

/**
 * `Project::TreeRestorer` (`lib/gitlab/import_export/project/tree_restorer.rb`): project attributes from
 * `project.json` with `override_params` on top, members mapped first, then each relation file line by line,
 * one savepoint per line inside transactions of up to 100 lines. A line that cannot be saved is a failed
 * relation (`saveLine`); a line that is not JSON throws TreeError and fails the import (lines saved before it
 * stay). Missing, empty and `null` relation files are skipped. Unknown relation files are ignored.
 */
export async function restoreTree(job: RestoreJob): Promise<void> {
  const { store } = job
  const writer = store.importWriter()
  const attrs = await readProjectJson(join(job.treeDir, 'project.json'))
  applyProjectAttributes(job, writer, attrs)
  const ctx = await restoreContext(job, true)
  for (const [name, restore] of RELATIONS) await restoreRelationFile(job, ctx, name, restore, false)
}

/**
 * `RelationTreeRestorer#restore_single_relation` as `Projects::ImportExport::RelationImportWorker` runs it
 * (`skip_on_duplicate_iid: true`): the members mapped to users (not added: the project has its members,
 * our reading of a re-import), then only `relation`'s file; a line whose iid the project holds already is
 * skipped, not a failure. A relation we do not restore (`ci_pipelines`: the emulator keeps no imported
 * pipelines) reads nothing. Failures are recorded under `job.correlationId`, the tracker's.
 */
export async function restoreSingleRelation(job: RestoreJob, relation: string): Promise<void> {
  const restore = RELATIONS.find(([name]) => name === relation)?.[1]
  if (!restore) return
  const ctx = await restoreContext(job, false)
  await restoreRelationFile(job, ctx, relation, relation === 'milestones' ? milestoneOnce : restore, true)
}

/** A milestone line skipped when the project has its iid (a full import keeps it under the next iid). */
function milestoneOnce(c: RestoreContext, line: unknown): unknown {
  const iid = (line as { iid?: unknown } | null)?.iid
  if (typeof iid === 'number' && c.writer.milestoneIidTaken(c.projectId, iid))
    throw new RelationError('ActiveRecord::RecordNotUnique', 'iid taken')
  return restoreMilestone(c, line)
}

const relationFile = (job: RestoreJob, name: string) => join(job.treeDir, 'project', `${name}.ndjson`)

/** The members mapped (and, for a new project, added) and what every line restorer needs. */
async function restoreContext(job: RestoreJob, addMembers: boolean): Promise<RestoreContext> {
  const { store } = job
  const writer = store.importWriter()
  const users = await mapMembers(
    store,
    writer,
    relationFile(job, 'project_members'),
    job.projectId,
    job.importer,
    job.now(),
    addMembers,
  )
  return {
    store,
    writer,
    users,
    projectId: job.projectId,
    lookups: importLookups(store, job.projectId),
    now: job.now(),
    modernAttribution: atLeast(job.gitlabVersion, '17.1'),
  }
}

/** One relation file, line by line, in batches (see restoreTree); missing files are skipped. */
async function restoreRelationFile(
  job: RestoreJob,
  ctx: RestoreContext,
  name: string,
  restore: (c: RestoreContext, line: unknown) => unknown,
  skipDuplicates: boolean,
): Promise<void> {
  const { store } = job
  const file = relationFile(job, name)
  if (!(await isFile(file))) return
  let batch: { value: unknown; index: number; elements: number }[] = []
  let batchChars = 0
  let batchElements = 0
  // Lines are saved in batches, each line in its own savepoint: committing every line on its own
  // was most of an import's time. The batch is gathered first, so no transaction spans an await.
  const save = () => {
    const lines = batch
    batch = []
    batchChars = 0
    batchElements = 0
    store.transaction(() => {
      ctx.lookups.clear()
      for (const { value, index } of lines)
        saveLine(job, ctx, name, index, () => store.transaction(() => restore(ctx, value)), skipDuplicates)
    })
    for (const { elements } of lines) collectAfterHeavyLine(elements)
  }
  try {
    for await (const line of readNdjson(file)) {
      if (job.aborted()) throw new TreeError('Import aborted: the server is closing')
      batch.push(line)
      batchChars += line.chars
      batchElements += line.elements
      if (batch.length >= BATCH_LINES || batchChars >= BATCH_CHARS || batchElements >= BATCH_ELEMENTS) save()
    }
  } finally {
    // Lines read before a line that is not JSON (or before closing) are saved, as GitLab's are.
    save()
  }
}

/**
 * Lines of a relation file saved per transaction, unless they add up to BATCH_CHARS or
 * BATCH_ELEMENTS first: a short line of `{}`s holds far more memory parsed than its characters say.
 */
const BATCH_LINES = 100
const BATCH_CHARS = 4 * 1024 * 1024
const BATCH_ELEMENTS = 100_000

/**
 * Saves one line with `restore` (its own savepoint). A line that cannot be saved is recorded as
 * a failed relation (source `process_relation_item!`) and skipped with everything nested in it
 * (the labels and milestones it made too, so the batch forgets what it found).
 */
function saveLine(
  job: RestoreJob,
  ctx: RestoreContext,
  name: string,
  index: number,
  restore: () => unknown,
  skipDuplicates: boolean,
): void {
  try {
    restore()
  } catch (err) {
    ctx.lookups.clear()
    const known = err instanceof RelationError
    if (skipDuplicates && known && err.exceptionClass === 'ActiveRecord::RecordNotUnique') return
    job.store.imports.addFailure({
      project_id: job.projectId,
      correlation_id: job.correlationId,
      relation_key: name,
      relation_index: index,
      exception_class: known ? err.exceptionClass : 'StandardError',
      exception_message: (err as Error).message.slice(0, 255),
      source: 'process_relation_item!',
      created_at: job.now(),
    })
  }
}

/** Archive attributes, then non-blank `override_params` on top (`update_params!`). */
function applyProjectAttributes(job: RestoreJob, writer: ImportWriter, attrs: Record<string, unknown>) {
  const project = job.store.projects.get(job.projectId)
  if (!project) throw new TreeError('Project was removed during the import')
  const given = Object.fromEntries(
    Object.entries(job.overrideParams).filter(([, v]) => v !== null && v !== undefined && v !== ''),
  )
  const merged: Record<string, unknown> = { ...attrs, ...given }
  const visibility =
    typeof merged.visibility === 'string' && VISIBILITIES.has(merged.visibility)
      ? merged.visibility
      : (VISIBILITY[merged.visibility_level as number] ?? project.visibility)
  writer.setProject({
    id: project.id,
    description: typeof merged.description === 'string' ? merged.description : project.description,
    visibility,
    archived: merged.archived === true || merged.archived === 'true' ? 1 : 0,
    default_branch:
      typeof merged.default_branch === 'string' ? merged.default_branch : project.default_branch,
    name: typeof given.name === 'string' ? given.name : project.name,
  })
  // `public_builds`, a permitted project attribute (import_export.yml); a boolean as GitLab writes it.
  if (typeof merged.public_builds === 'boolean')
    job.store.projectSettings.setPublicBuilds(project.id, merged.public_builds)
}
