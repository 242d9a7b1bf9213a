/*
 * GitLab's quick-action extractor (`lib/gitlab/quick_actions/extractor.rb`): a command is a line
 * that starts with `/name`, optionally followed by a space and its argument. Fenced code blocks
 * (```` ``` ````), multi-line inline code, HTML blocks and `>>>` block quotes are skipped whole,
 * as GitLab's single regular expression does (its flags `mix`: `.` crosses lines). Every matched
 * command line is removed, with the blank lines after it; the rest is right-trimmed.
 */

/** One command as written: its lower-cased name and its argument, if any. */
export interface ExtractedCommand {
  name: string
  arg?: string
}

const escape = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

function commandsRegex(names: string[]): RegExp {
  const union = names.map(escape).join('|')
  return new RegExp(
    [
      '(?<code>^```.+?\\n```$)',
      '(?<inline>^.*`\\n*.+?\\n*`$)',
      '(?<html>^<[^>]+?>\\n.+?\\n<\\/[^>]+?>$)',
      '(?<quote>^>>>.+?\\n>>>$)',
      `(?:^\\/(?<cmd>${union})(?: (?<arg>[^\\n]*))?(?:\\s*\\n|$))`,
    ].join('|'),
    'gmsi',
  )
}

/** The text without its command lines, and the commands in the order written. */
export function extractCommands(
  text: string,
  names: string[],
): { content: string; commands: ExtractedCommand[] } {
  const commands: ExtractedCommand[] = []
  if (names.length === 0) return { content: text.replace(/\r/g, '').trimEnd(), commands }
  const content = text.replace(/\r/g, '').replace(commandsRegex(names), (whole, ...rest) => {
    const groups = rest.at(-1) as { cmd?: string; arg?: string }
    if (!groups.cmd) return whole
    // Ruby's `reject(&:blank?)`: a blank argument is no argument; a real one is kept as written.
    const arg = groups.arg !== undefined && groups.arg.trim() !== '' ? groups.arg : undefined
    commands.push({ name: groups.cmd.toLowerCase(), ...(arg !== undefined ? { arg } : {}) })
    return ''
  })
  return { content: content.trimEnd(), commands }
}
