import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'
import { verifyExportArchive } from '../export-project/verify.js'

/** What an export archive holds, as import-project's `verify` compares it: keys and titles, no bodies. */
export interface ArchiveContents {
  /** iid -> title. */
  issues: Map<number, string>
  /** Notes on issues that people wrote (not system notes). */
  notes: number
  /** Project label titles (`labels.ndjson`). */
  labels: Set<string>
  milestones: Set<string>
  /** iid -> title. */
  mergeRequests: Map<number, string>
  /** Usernames of `project_members.ndjson`. */
  members: Set<string>
}

type Obj = Record<string, unknown>
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {})
const str = (v: unknown) => (typeof v === 'string' ? v : undefined)

/** The relation files of GitLab's archive layout (`tree/project/<relation>.ndjson`) that are counted. */
const COUNTED: Record<string, (c: ArchiveContents, line: Obj) => void> = {
  issues: (c, i) => {
    if (typeof i.iid === 'number') c.issues.set(i.iid, str(i.title) ?? '')
    if (Array.isArray(i.notes)) c.notes += i.notes.filter((n) => obj(n).system !== true).length
  },
  labels: (c, l) => void (str(l.title) !== undefined && c.labels.add(str(l.title)!)),
  milestones: (c, m) => void (str(m.title) !== undefined && c.milestones.add(str(m.title)!)),
  merge_requests: (c, m) => {
    if (typeof m.iid === 'number') c.mergeRequests.set(m.iid, str(m.title) ?? '')
  },
  project_members: (c, m) => {
    const username = str(obj(m.user).username)
    if (username !== undefined) c.members.add(username)
  },
}

/**
 * Reads the archive once as a stream (export-project's check: gzip, tar, `VERSION`), each counted
 * relation file line by line: one line parsed at a time, only keys and titles kept. A line that is not
 * JSON is skipped (GitLab's importer would fail the import on it; the import's own status says so).
 */
export async function readArchiveContents(file: string): Promise<ArchiveContents> {
  const contents: ArchiveContents = {
    issues: new Map(),
    notes: 0,
    labels: new Set(),
    milestones: new Set(),
    mergeRequests: new Map(),
    members: new Set(),
  }
  const lines = async (stream: Readable, count: (c: ArchiveContents, line: Obj) => void) => {
    for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
      if (line.trim() === '') continue
      let value: unknown
      try {
        value = JSON.parse(line)
      } catch {
        continue
      }
      count(contents, obj(value))
    }
  }
  await verifyExportArchive(file, (name, stream) => {
    const m = /^tree\/project\/([a-z_]+)\.ndjson$/.exec(name)
    const count = m ? COUNTED[m[1] as string] : undefined
    return count ? lines(stream, count) : undefined
  })
  return contents
}
