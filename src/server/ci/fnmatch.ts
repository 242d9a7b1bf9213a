// Ruby's `File.fnmatch?(glob, path, File::FNM_PATHNAME | File::FNM_DOTMATCH | File::FNM_EXTGLOB)`, as
// `rules:exists` and `rules:changes` match paths (`lib/gitlab/ci/build/rules/rule/clause/exists.rb`,
// `changes.rb`): `*` and `?` stay within a folder and match dot files, `**/` is any number of folders,
// `{a,b}` either, `[...]` a class.

const compiled = new Map<string, RegExp>()

function toRegExp(glob: string): RegExp {
  let out = ''
  let braces = 0
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string
    if (c === '*' && glob[i + 1] === '*' && (i === 0 || glob[i - 1] === '/') && glob[i + 2] === '/') {
      out += '(?:[^/]*/)*'
      i += 2
    } else if (c === '*') out += '[^/]*'
    else if (c === '?') out += '[^/]'
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2)
      if (end < 0) out += '\\['
      else {
        const body = glob
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')
        out += `[${body}]`
        i = end
      }
    } else if (c === '{') {
      braces++
      out += '(?:'
    } else if (c === '}' && braces > 0) {
      braces--
      out += ')'
    } else if (c === ',' && braces > 0) out += '|'
    else if (c === '\\' && i + 1 < glob.length) out += `\\${glob[++i]}`
    else out += c.replace(/[.+^$()|\\/]/g, '\\$&')
  }
  if (braces > 0) return /(?!)/
  return new RegExp(`^${out}$`)
}

/** Whether `path` (relative, no leading `/`) matches `glob`. */
export function fnmatch(glob: string, path: string): boolean {
  let re = compiled.get(glob)
  if (!re) {
    try {
      re = toRegExp(glob)
    } catch {
      re = /(?!)/
    }
    if (compiled.size > 256) compiled.clear()
    compiled.set(glob, re)
  }
  return re.test(path)
}
