// Each command loads only its own modules: `serve` starts without the client, undici or the actions.
const usage = async () => {
  const { actionCommands } = await import('./actions.js')
  return `Usage: gitlab-actions <command> [options]

Commands:
  serve              run the GitLab-compatible reference server
  demo               walk through the API against an in-process reference server
${actionCommands()
  .map((a) => `  ${a.name.padEnd(18)} ${a.description}`)
  .join('\n')}

Run 'gitlab-actions <command> --help' for a command's options, 'gitlab-actions --version' for the version.
`
}

/** CLI entry: returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  switch (command) {
    case 'serve': {
      const { loadServe } = await import('./serve-script.js')
      return loadServe(rest)(rest)
    }
    case 'demo': {
      const { demo } = await import('./demo.js')
      return demo(rest)
    }
    case '-v':
    case '--version': {
      const { VERSION } = await import('./version.js')
      process.stdout.write(`${VERSION}\n`)
      return 0
    }
    case '-h':
    case '--help':
    case 'help':
      process.stdout.write(await usage())
      return 0
    case undefined:
      // Bad input, as an unknown command: exit 2 (0 done, 1 failed, 2 bad input).
      process.stderr.write(await usage())
      return 2
  }
  const { runActionCommand, runners } = await import('./actions.js')
  if (command in runners) return runActionCommand(command, rest)
  process.stderr.write(`Unknown command '${command}'.\n\n${await usage()}`)
  return 2
}
