import { commitActionNames, type CommitAction } from '../../../schema/repository.js'
import type { FileEntry } from '../../git/commit-files.js'
import { gitObject, type GitObject } from '../../git/objects.js'
import { messageError, paramError } from '../../grape/gitlab-errors.js'

/** An action checked: its kind, path and, for writes, the blob it writes. */
export interface CheckedAction {
  action: (typeof commitActionNames)[number]
  file_path: string
  previous_path?: string
  content?: Buffer
  last_commit_id?: string
  execute_filemode?: boolean
}

const fail = (message: string) => messageError(400, message)

/**
 * A path as the repository API accepts it (`lib/api/validations/validators/file_path.rb` and
 * Gitaly's `UserCommitFiles`): relative, no `.`/`..` segment, no empty one; a leading `/` is
 * dropped. Undefined when refused.
 */
export function cleanPath(path: string): string | undefined {
  const trimmed = path.replace(/^\/+/, '')
  const parts = trimmed.split('/')
  if (trimmed === '' || parts.some((p) => p === '' || p === '.' || p === '..') || trimmed.includes('\0'))
    return undefined
  return trimmed
}

/**
 * `actions[]` checked with Grape's messages (`lib/api/commits.rb`: `action` in its values,
 * `file_path` required, `content` for create and update, `previous_path` for move, `encoding`
 * text or base64) and their content decoded.
 */
export function checkActions(actions: CommitAction[]): CheckedAction[] {
  if (actions.length === 0) throw paramError('actions is empty')
  const errors: string[] = []
  const checked = actions.map((a, i): CheckedAction | undefined => {
    const name = (key: string) => `actions[${i}][${key}]`
    if (a.action === undefined) errors.push(`${name('action')} is missing`)
    else if (!(commitActionNames as readonly string[]).includes(a.action))
      errors.push(`${name('action')} does not have a valid value`)
    if (a.file_path === undefined) errors.push(`${name('file_path')} is missing`)
    if (a.encoding !== undefined && a.encoding !== 'text' && a.encoding !== 'base64')
      errors.push(`${name('encoding')} does not have a valid value`)
    if (a.action === 'move' && a.previous_path === undefined)
      errors.push(`${name('previous_path')} is missing`)
    if (a.action === undefined || a.file_path === undefined) return undefined
    const content =
      a.content === undefined
        ? undefined
        : Buffer.from(a.content, a.encoding === 'base64' ? 'base64' : 'utf8')
    return {
      action: a.action as CheckedAction['action'],
      file_path: a.file_path,
      ...(a.previous_path === undefined ? {} : { previous_path: a.previous_path }),
      ...(content === undefined ? {} : { content }),
      ...(a.last_commit_id === undefined ? {} : { last_commit_id: a.last_commit_id }),
      ...(a.execute_filemode === undefined ? {} : { execute_filemode: a.execute_filemode }),
    }
  })
  if (errors.length > 0) throw paramError(errors.join(', '))
  return checked as CheckedAction[]
}

/** True when some file lies below `path` (it names a folder). */
const isFolder = (files: Map<string, FileEntry>, path: string) => {
  const prefix = `${path}/`
  for (const p of files.keys()) if (p.startsWith(prefix)) return true
  return false
}

/** True when a prefix of `path` is a file (it cannot hold files). */
const underFile = (files: Map<string, FileEntry>, path: string) => {
  const parts = path.split('/')
  for (let i = 1; i < parts.length; i++) if (files.has(parts.slice(0, i).join('/'))) return true
  return false
}

/**
 * Applies the actions to a tree's files in order, as Gitaly's `UserCommitFiles` does, with its
 * errors (400, `{"message": ...}`): a file created where one exists, or updated, moved, deleted or
 * chmod'ed where none does. `put` stores each blob written. A move without `content` keeps the
 * file's bytes; `execute_filemode` sets or clears the executable bit (create and update keep it).
 */
export function applyActions(
  files: Map<string, FileEntry>,
  actions: CheckedAction[],
  put: (o: GitObject) => void,
): Map<string, FileEntry> {
  const next = new Map(files)
  const blob = (content: Buffer) => {
    const o = gitObject('blob', content)
    put(o)
    return o.sha
  }
  const mode = (exec: boolean | undefined, was: string | undefined) =>
    exec === undefined ? (was ?? '100644') : exec ? '100755' : '100644'
  for (const a of actions) {
    const path = cleanPath(a.file_path)
    if (path === undefined) throw fail(`invalid path: '${a.file_path}'`)
    const existing = next.get(path)
    switch (a.action) {
      case 'create':
        if (existing) throw fail('A file with this name already exists')
        if (isFolder(next, path)) throw fail('A directory with this name already exists')
        if (underFile(next, path)) throw fail('A file with this name already exists')
        next.set(path, { mode: mode(a.execute_filemode, undefined), sha: blob(a.content ?? Buffer.alloc(0)) })
        break
      case 'update':
        if (!existing) throw fail("A file with this name doesn't exist")
        next.set(path, {
          mode: mode(a.execute_filemode, existing.mode),
          sha: blob(a.content ?? Buffer.alloc(0)),
        })
        break
      case 'delete':
        if (!existing) throw fail("A file with this name doesn't exist")
        next.delete(path)
        break
      case 'chmod':
        if (!existing) throw fail("A file with this name doesn't exist")
        next.set(path, { ...existing, mode: mode(a.execute_filemode ?? false, existing.mode) })
        break
      case 'move': {
        const from = cleanPath(a.previous_path ?? '')
        if (from === undefined) throw fail(`invalid path: '${a.previous_path ?? ''}'`)
        const source = next.get(from)
        if (!source) throw fail("A file with this name doesn't exist")
        if (from !== path && (existing || isFolder(next, path)))
          throw fail('A file with this name already exists')
        next.delete(from)
        if (underFile(next, path)) throw fail('A file with this name already exists')
        const sha = a.content === undefined ? source.sha : blob(a.content)
        next.set(path, { mode: mode(a.execute_filemode, source.mode), sha })
        break
      }
    }
  }
  return next
}
