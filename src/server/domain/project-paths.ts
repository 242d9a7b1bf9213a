/**
 * A project's name and path as GitLab derives and checks them (`Projects::CreateService
 * #set_project_name_from_path`, `Gitlab::PathRegex.project_path_format_regex`,
 * `Gitlab::Regex.project_name_regex`, `ProjectPathValidator`). No I/O.
 */

/** `Gitlab::PathRegex::PROJECT_WILDCARD_ROUTES`: paths a project may not take. */
const RESERVED = new Set([
  '-',
  'badges',
  'blame',
  'blob',
  'builds',
  'commits',
  'create',
  'create_dir',
  'edit',
  'files',
  'find_file',
  'new',
  'preview',
  'raw',
  'refs',
  'tree',
  'update',
  'upload',
  'wikis',
])

const PATH_FORMAT = /^[a-zA-Z0-9_.][a-zA-Z0-9_\-.]{0,254}$/
const NAME_FORMAT = /^[\p{L}\p{N}\u{00A9}-\u{1f9ff}_][\p{L}\p{N}\p{Pd}+\u{00A9}-\u{1f9ff}_. ]*$/u

export const PROJECT_PATH_MESSAGE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'"
export const PROJECT_NAME_MESSAGE =
  "can contain only letters, digits, emoji, '_', '.', '+', dashes, or spaces. It must start with a letter, digit, emoji, or '_'."

/** True when `path` has the form of a project path (`project_path_format_regex`). */
export const isProjectPath = (path: string) => PATH_FORMAT.test(path) && !/\.(git|atom)$/.test(path)

/**
 * ActiveSupport's `String#parameterize`: accents dropped (`I18n.transliterate`, other characters
 * become `?`), runs of anything but letters, digits, `-` and `_` one `-`, no `-` at either end, lower case.
 */
export function parameterize(text: string): string {
  const ascii = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^ -~\t\n\r]/g, '?')
  return ascii
    .replace(/[^a-z0-9\-_]+/gi, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase()
}

/**
 * `set_project_name_from_path`: with both given, both stay; a path alone names the project; a name
 * alone is the path when it has a path's form, else its `parameterize`d form.
 */
export function nameAndPath(
  name: string | undefined,
  path: string | undefined,
): { name: string; path: string } {
  if (name && path) return { name, path }
  if (path) return { name: path, path }
  const n = name ?? ''
  return { name: n, path: isProjectPath(n) ? n : parameterize(n) }
}

/** The model's errors on a name and a path, in the order its validations run. */
export function nameAndPathErrors(name: string, path: string): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  const add = (field: string, message: string) => (errors[field] ??= []).push(message)
  if (!name.trim()) add('name', "can't be blank")
  else if (!NAME_FORMAT.test(name)) add('name', PROJECT_NAME_MESSAGE)
  if (name.length > 255) add('name', 'is too long (maximum is 255 characters)')
  if (!path) add('path', "can't be blank")
  else {
    if (RESERVED.has(path.toLowerCase())) add('path', `${path} is a reserved name`)
    if (!isProjectPath(path)) add('path', PROJECT_PATH_MESSAGE)
  }
  if (path.length > 255) add('path', 'is too long (maximum is 255 characters)')
  return errors
}

const VISIBILITY_RANK: Record<string, number> = { private: 0, internal: 10, public: 20 }

/**
 * `Project#visibility_level_allowed_by_group`: a project in a group may not be more visible than the
 * group; `null` when allowed, else the model's message.
 */
export function visibilityAboveGroup(project: string, group: string): string | null {
  if ((VISIBILITY_RANK[project] ?? 0) <= (VISIBILITY_RANK[group] ?? 0)) return null
  return `${project} is not allowed in a ${group} group.`
}

/**
 * `Project#visibility_level_allowed_as_fork`: a fork may not be more visible than the project it was
 * forked from (`fork_source`); `null` when allowed, else the model's message.
 */
export function visibilityAboveForkSource(project: string, source: string): string | null {
  if ((VISIBILITY_RANK[project] ?? 0) <= (VISIBILITY_RANK[source] ?? 0)) return null
  return `${project} is not allowed since the fork source project has lower visibility.`
}
