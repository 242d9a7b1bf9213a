import { randomBytes } from 'node:crypto'
import { repositoryTables } from './repository.js'
import { openDb, openMemoryImage, isEmpty, type Db } from './db.js'
import { epicTable } from './epics.js'
import { groupWriteTable } from './group-writes.js'
import { issueTable } from './issues.js'
import { labelTable } from './labels.js'
import { memberTable } from './members.js'
import { accessTokenTable } from './access-tokens.js'
import { milestoneTable } from './milestones.js'
import { namespaceTable } from './namespaces.js'
import { projectTable } from './projects.js'
import { userTable } from './users.js'
import { triggerTable } from './triggers.js'
import { jobTokenScopeTable } from './job-token-scopes.js'
import { pipelineScheduleTable } from './pipeline-schedules.js'
import { ciVariableTable } from './ci-variables.js'
import { jobDefinitionTable } from './job-definitions.js'
import { ciProcessableTable } from './ci-processables.js'
import { commitStatusTable } from './commit-statuses.js'
import { commitNoteTable } from './commit-notes.js'
import { eventTable } from './events.js'
import { environmentTable } from './environments.js'
import { pipelineTable } from './pipelines.js'
import { jobOutputTable } from './job-outputs.js'
import { aliasTable } from './aliases.js'
import { issueDetailTables } from './issue-details.js'
import { exportReader, exportTable } from './exports.js'
import { importTable, importWriter, type ImportWriter } from './imports.js'
import { relationImportTable } from './relation-imports.js'
import { gitObjectTable } from './git-objects.js'
import { changeCounter, storeChanges } from './changes.js'
import { issueQueries } from './issue-query.js'
import { runnerTable } from './runners.js'
import { metaTable } from './meta.js'
import { emptyDataTables, storeSnapshot } from './snapshot.js'
import { namedSnapshots } from './named-snapshots.js'
import { loadDbKeyBase } from './secrets-file.js'
import { columnsHolding, restamp, type SeededImage } from './seeded-image.js'
import { keepConnection } from './inspect.js'
import { secretBox } from './secret-box.js'
import { sessionSeal } from './session-seal.js'
import { instanceCounts } from './instance-counts.js'
import { keyLegacyDigests, tokenDigest } from './token-digests.js'
import { projectSettingsTable } from './project-settings.js'
import { forkTables } from './forks.js'
import { webHookTable } from './web-hooks.js'

export { isConstraintError } from './sqlite.js'

/**
 * Opens the store of `data` (`:memory:` or a directory, see db.ts) with its key (secrets-file.ts).
 * The connection stays inside: everything else reaches the database through the facade.
 */
export function openStore(data: string): Store {
  const db = openDb(data)
  let dbKeyBase: Buffer
  try {
    dbKeyBase = loadDbKeyBase(data, db)
    keyLegacyDigests(db, dbKeyBase)
  } catch (err) {
    db.close()
    throw err
  }
  const store = createStore(db, dbKeyBase, data)
  keepConnection(store, db)
  return store
}

/**
 * An in-memory store from the image of one just seeded (seeded-image.ts), with that store's key and
 * its time of seeding moved to `now`; undefined when SQLite cannot read the image. The image's token
 * digests and sealed secrets stay keyed with the image's key (they cannot be keyed again without the
 * tokens), but the pages' sessions are signed with a key of this start's own: every server started
 * from one image would otherwise accept the others' session cookies and CSRF tokens, which two
 * starts that read the seed file never do (each has a fresh `:memory:` key).
 */
export function openSeededImage(seeded: SeededImage, now: string): Store | undefined {
  const db = openMemoryImage(seeded.image)
  if (!db) return undefined
  restamp(db, seeded, now)
  const store = createStore(db, seeded.dbKeyBase, ':memory:', randomBytes(32))
  keepConnection(store, db)
  return store
}

/**
 * The store facade: one module per table group, all over one connection; `secrets` seals and
 * opens stored secrets with `dbKeyBase`, the key kept outside the database (secrets-file.ts), and
 * token digests are keyed with it (token-digests.ts); the pages' sessions are signed with
 * `sessionKey` (the same key unless a start from an image gives one of its own).
 */
function createStore(db: Db, dbKeyBase: Buffer, data: string, sessionKey = dbKeyBase) {
  const changeCount = changeCounter(db)
  const changes = storeChanges(db, changeCount)
  let writer: ImportWriter | undefined
  const digest = tokenDigest(dbKeyBase)
  // An in-memory store resets by rolling back a transaction held since the snapshot (snapshot.ts).
  const snapshot = storeSnapshot(db, { holds: data === ':memory:' })
  return {
    changes,
    /** Rows written so far (SQLite's `total_changes()`): unchanged means nothing was written. */
    changeCount,
    secrets: secretBox(dbKeyBase),
    users: userTable(db, changes.structureVersion, digest),
    namespaces: namespaceTable(db, changes.structureVersion),
    projects: projectTable(db, changes.structureVersion),
    members: memberTable(db, changes.structureVersion),
    accessTokens: accessTokenTable(db),
    labels: labelTable(db, changes.structureVersion),
    milestones: milestoneTable(db, changes.structureVersion),
    issues: issueTable(db, changes.structureVersion),
    issueQueries: issueQueries(db),
    epics: epicTable(db),
    groupWrites: groupWriteTable(db, changes.structureVersion),
    triggers: triggerTable(db, digest),
    /** Which other projects' CI/CD job tokens a project lets in (job-token-scopes.ts). */
    jobTokenScopes: jobTokenScopeTable(db),
    /** Pipeline schedules, their sealed variables and the pipelines they made (pipeline-schedules.ts). */
    pipelineSchedules: pipelineScheduleTable(db),
    /** Project CI/CD variables, values sealed (ci-variables.ts). */
    ciVariables: ciVariableTable(db),
    /** Group CI/CD variables, the same shape in their own table. */
    ciGroupVariables: ciVariableTable(db, 'ci_group_variables', 'group_id'),
    /** Instance CI/CD variables: the same shape with no owner (`INSTANCE`). */
    ciInstanceVariables: ciVariableTable(db, 'ci_instance_variables', null),
    pipelines: pipelineTable(db, digest),
    /** What each job's `.gitlab-ci.yml` told it to do (src/server/ci/job-definition.ts). */
    jobDefinitions: jobDefinitionTable(db),
    /** What jobs leave behind: traces, artifacts, and their state beyond `ci_builds` (job-outputs.ts). */
    jobOutputs: jobOutputTable(db),
    /** Each planned job's stage and bridge marker (ci-processables.ts). */
    ciProcessables: ciProcessableTable(db),
    /** Statuses external CI systems posted on commits, and a commit's list of every status (commit-statuses.ts). */
    commitStatuses: commitStatusTable(db),
    /** Comments on commits (commit-notes.ts). */
    commitNotes: commitNoteTable(db),
    /** What people did in projects, as the Events API lists it (events.ts). */
    events: eventTable(db),
    /** Environments, their deployments and the jobs that name them (environments.ts). */
    environments: environmentTable(db),
    runners: runnerTable(db, digest),
    aliases: aliasTable(db),
    ...issueDetailTables(db, changes.structureVersion),
    exports: exportTable(db),
    /** A reader for one export (it sees the tables that exist when it is made). */
    exportReader: () => exportReader(db),
    imports: importTable(db),
    /** The import's writer, made on first use (most servers never import). */
    importWriter: () => (writer ??= importWriter(db)),
    /** The trackers of single relation imports (`POST /projects/import-relation`). */
    relationImports: relationImportTable(db),
    gitObjects: gitObjectTable(db),
    /** Refs, commits, protected branches and annotated tags of each project's repository (repository.ts). */
    repository: repositoryTables(db),
    /** What the projects API writes besides the `projects` row: settings, shares, removal. */
    projectSettings: projectSettingsTable(db, changes.structureVersion),
    /** Fork networks, their members, and the copy of a repository into a fork (forks.ts). */
    forks: forkTables(db),
    meta: metaTable(db),
    /** Project and group webhooks and their deliveries (web-hooks.ts). */
    webHooks: webHookTable(db, changes.structureVersion),
    /** The seeded state kept for fast resets (snapshot.ts). */
    snapshot,
    /** Named snapshots of the whole store (`/-/emulator/snapshots`, named-snapshots.ts). */
    namedSnapshots: namedSnapshots(db, data, snapshot),
    /** The store as an image to start the next from (seeded-image.ts): its key with it, seeded at `seededAt`. */
    seededImage: (seededAt: string): SeededImage => ({
      image: db.serialize(),
      dbKeyBase,
      seededAt,
      stamped: columnsHolding(db, seededAt),
    }),
    /** True when the store holds no users yet (so a seed may be applied). */
    isEmpty: () => isEmpty(db),
    /** Empties every table but `emulator_meta`; inside a transaction. */
    emptyDataTables: () => emptyDataTables(db),
    /** Foreign keys of the open transaction are checked at its commit, not at each statement. */
    deferForeignKeys: () => db.deferForeignKeys(),
    /** Throws when the database cannot answer a query (readiness checks). */
    ping: () => void db.prepare('SELECT 1').get(),
    /** Runs `fn` in one transaction: it all lands or none of it does. */
    transaction: <T>(fn: () => T): T => db.transaction(fn),
    /** Runs `fn` (a reset) without SQLite's WAL checkpoint, which runs at idle time instead. */
    checkpointLater: <T>(fn: () => T): T => db.checkpointLater(fn),
    close: () => db.close(),
    /** Signs and opens the pages' session cookies (session-seal.ts), with `sessionKey`. */
    sessions: sessionSeal(sessionKey),
    /** Users, groups, projects, issues and pipelines held (the emulator page). */
    counts: instanceCounts(db),
  }
}
export type Store = ReturnType<typeof createStore>
