import { awardEmojiTable } from './award-emoji.js'
import type { Db } from './db.js'
import { issueLinkTable } from './issue-links.js'
import { issueMoveTable } from './issue-moves.js'
import { mergeRequestTable } from './merge-requests.js'
import { metricImageTable } from './metric-images.js'
import { noteTable } from './notes.js'
import { resourceEventTable } from './resource-events.js'
import { timelogTable } from './timelogs.js'
import { todoTable } from './todos.js'

/**
 * The tables of issue details (notes, to-dos, award emoji, timelogs, metric images, merge requests, moves, links, resource events), for
 * `createStore`; `version` is changes.ts `structureVersion`.
 */
export function issueDetailTables(db: Db, version: () => number) {
  return {
    notes: noteTable(db),
    todos: todoTable(db),
    awardEmoji: awardEmojiTable(db),
    timelogs: timelogTable(db),
    metricImages: metricImageTable(db),
    mergeRequests: mergeRequestTable(db),
    issueMoves: issueMoveTable(db),
    issueLinks: issueLinkTable(db, version),
    resourceEvents: resourceEventTable(db),
  }
}
