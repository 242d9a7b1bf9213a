import type { Db } from './db.js'
import { epicTable } from './epics.js'
import { issueTable } from './issues.js'
import { labelTable } from './labels.js'
import { memberTable } from './members.js'
import { milestoneTable } from './milestones.js'
import { namespaceTable } from './namespaces.js'
import { projectTable } from './projects.js'
import { userTable } from './users.js'
import { triggerTable } from './triggers.js'
import { pipelineTable } from './pipelines.js'
import { aliasTable } from './aliases.js'
import { issueDetailTables } from './issue-details.js'
import { exportTable } from './exports.js'
import { importTable } from './imports.js'
import { gitObjectTable } from './git-objects.js'
import { storeChanges } from './changes.js'
import { secretBox } from '../services/secret-box.js'

/**
 * The store facade: one module per table group, all over one connection; `secrets` seals and
 * opens stored secrets with `dbKeyBase`, the key kept outside the database (secrets-file.ts).
 */
export function createStore(db: Db, dbKeyBase: Buffer) {
  return {
    db,
    changes: storeChanges(db),
    secrets: secretBox(dbKeyBase),
    users: userTable(db),
    namespaces: namespaceTable(db),
    projects: projectTable(db),
    members: memberTable(db),
    labels: labelTable(db),
    milestones: milestoneTable(db),
    issues: issueTable(db),
    epics: epicTable(db),
    triggers: triggerTable(db),
    pipelines: pipelineTable(db),
    aliases: aliasTable(db),
    ...issueDetailTables(db),
    exports: exportTable(db),
    imports: importTable(db),
    gitObjects: gitObjectTable(db),
    /** Runs `fn` in one transaction: it all lands or none of it does. */
    transaction: <T>(fn: () => T): T => db.transaction(fn),
  }
}
export type Store = ReturnType<typeof createStore>
