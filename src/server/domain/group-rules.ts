/*
 * Group validations with no I/O (app/models/namespace.rb, app/models/group.rb,
 * app/validators/abstract_path_validator.rb, lib/gitlab/path_regex.rb, lib/gitlab/regex.rb).
 */

/** `Gitlab::PathRegex.namespace_format_regex` and its message. */
const PATH_FORMAT = /^[a-zA-Z0-9_.][a-zA-Z0-9_\-.]*$/
export const PATH_FORMAT_MESSAGE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."

/**
 * `Gitlab::PathRegex::TOP_LEVEL_ROUTES`: names a top-level group may not take (the routes they
 * would hide). Below the top level only `GROUP_ROUTES`' `-` is refused here; GitLab refuses a few
 * more words under a group, which the server does not list.
 */
const TOP_LEVEL_RESERVED = new Set([
  '-',
  '.well-known',
  '404.html',
  '422.html',
  '500.html',
  '502.html',
  '503.html',
  'admin',
  'api',
  'apple-touch-icon.png',
  'assets',
  'dashboard',
  'deploy.html',
  'explore',
  'favicon.ico',
  'favicon.png',
  'files',
  'groups',
  'health_check',
  'help',
  'import',
  'jwt',
  'login',
  'oauth',
  'profile',
  'projects',
  'public',
  'robots.txt',
  's',
  'search',
  'sitemap',
  'sitemap.xml',
  'sitemap.xml.gz',
  'slash-command-logo.png',
  'snippets',
  'unsubscribes',
  'uploads',
  'users',
  'v2',
])

/** `Gitlab::Regex.group_name_regex` and its message. */
const NAME_FORMAT = /^[\p{L}\p{N}\u00A9-\u{1F9FF}_][\p{L}\p{N}\p{Pd}+\u00A9-\u{1F9FF}_. ()]*$/u
const NAME_FORMAT_MESSAGE =
  "can contain only letters, digits, emoji, '_', '.', dash, space, parenthesis. It must start with letter, digit, emoji or '_'."

const VISIBILITY_RANK: Record<string, number> = { private: 0, internal: 10, public: 20 }
/** `Gitlab::VisibilityLevel`'s order: private < internal < public. */
export const visibilityRank = (visibility: string) => VISIBILITY_RANK[visibility] ?? 0

/** A group's errors, keyed as ActiveModel keys them, in the order the model validates. */
export type GroupErrors = Record<string, string[]>

/**
 * The model's checks on a group's own fields: name (presence, length, format), description
 * length, path (presence, length, format, reserved names). Taken paths and visibility are the
 * service's, which reads the store.
 */
export function groupFieldErrors(g: {
  name: string
  path: string
  description: string
  topLevel: boolean
}): GroupErrors {
  const errors: GroupErrors = {}
  const add = (key: string, message: string) => (errors[key] ??= []).push(message)
  if (!g.name.trim()) add('name', "can't be blank")
  else if (g.name.length > 255) add('name', 'is too long (maximum is 255 characters)')
  else if (!NAME_FORMAT.test(g.name)) add('name', NAME_FORMAT_MESSAGE)
  if (g.description.length > 255) add('description', 'is too long (maximum is 255 characters)')
  if (!g.path) add('path', "can't be blank")
  else if (g.path.length > 255) add('path', 'is too long (maximum is 255 characters)')
  else if (!PATH_FORMAT.test(g.path) || /(\.|\.git|\.atom)$/.test(g.path)) add('path', PATH_FORMAT_MESSAGE)
  else if (g.path.length < 2) add('path', 'is too short (minimum is 2 characters)')
  else if (g.topLevel ? TOP_LEVEL_RESERVED.has(g.path.toLowerCase()) : g.path === '-')
    add('path', `${g.path} is a reserved name`)
  return errors
}

/** Ruby's `Hash#inspect` of an errors hash (Ruby 3.3): `{:path=>["has already been taken"]}`. */
export function inspectErrors(errors: GroupErrors): string {
  const pairs = Object.entries(errors).map(
    ([key, messages]) => `:${key}=>[${messages.map((m) => JSON.stringify(m)).join(', ')}]`,
  )
  return `{${pairs.join(', ')}}`
}
