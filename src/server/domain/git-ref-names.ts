/**
 * Whether a branch or tag name is one GitLab creates (`Gitlab::GitRefValidator.validate`,
 * lib/gitlab/git_ref_validator.rb): `git check-ref-format`'s rules (no `..`, no control characters,
 * space, `~^:?*[\`, no `@{`, no part starting with `.` or ending in `.lock`, no `//`, not ending in
 * `/` or `.`), and not `HEAD`, not starting with `refs/heads/`, `refs/remotes/` or `-`, not a
 * full commit SHA.
 */
export function validRefName(name: string): boolean {
  if (name === '' || name === 'HEAD' || name === '@') return false
  if (/^(refs\/heads\/|refs\/remotes\/|-)/.test(name)) return false
  if (/^[0-9a-f]{40}$/.test(name)) return false
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x20\x7f~^:?*[\\]|\.\.|@\{|\/\/|^\/|\/$|\.$/.test(name)) return false
  return name.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'))
}
