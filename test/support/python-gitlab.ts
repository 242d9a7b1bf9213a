import { execFile } from 'node:child_process'
import { promisify } from 'node:util'

const run = promisify(execFile)

/**
 * The first Python that imports `gitlab` (Debian's python3-gitlab): `python3` on PATH, else the
 * system's (a pyenv or venv `python3` does not see Debian's packages). Throws, saying what to install,
 * when neither does.
 */
export async function pythonWithGitlab(): Promise<string> {
  for (const python of ['python3', '/usr/bin/python3']) {
    const found = await run(python, ['-c', 'import gitlab']).then(
      () => true,
      () => false,
    )
    if (found) return python
  }
  throw new Error('python-gitlab is missing: install python3-gitlab (apt-get install -y python3-gitlab)')
}

/** Runs a python-gitlab script with `env` and returns what it printed, parsed as JSON. */
export async function runPythonGitlab(script: string, env: Record<string, string>): Promise<unknown> {
  const { stdout } = await run(await pythonWithGitlab(), [script], {
    env: { ...process.env, ...env },
    timeout: 60_000,
  })
  return JSON.parse(stdout) as unknown
}
