import type { Db } from './db.js'

export interface MetricImageRow {
  id: number
  issue_id: number
  filename: string
  url: string | null
  url_text: string | null
  created_at: string
}

/** Incident metric images; the files live on disk, named by id (services/metric-images.ts). */
export function metricImageTable(db: Db) {
  const insert = db.prepare(
    `INSERT INTO metric_images (issue_id, filename, url, url_text, created_at)
     VALUES (@issue_id, @filename, @url, @url_text, @created_at)`,
  )
  const byId = db.prepare('SELECT * FROM metric_images WHERE id = ?')
  const ofIssue = db.prepare('SELECT * FROM metric_images WHERE issue_id = ? ORDER BY created_at, id')
  const update = db.prepare('UPDATE metric_images SET url = @url, url_text = @url_text WHERE id = @id')
  const remove = db.prepare('DELETE FROM metric_images WHERE id = ?')
  return {
    insert: (row: Omit<MetricImageRow, 'id'>) => Number(insert.run(row).lastInsertRowid),
    get: (id: number) => byId.get(id) as MetricImageRow | undefined,
    /** Oldest first, as GitLab lists them. */
    ofIssue: (issueId: number) => ofIssue.all(issueId) as MetricImageRow[],
    update: (id: number, url: string | null, urlText: string | null) =>
      update.run({ id, url, url_text: urlText }),
    remove: (id: number) => remove.run(id),
  }
}
