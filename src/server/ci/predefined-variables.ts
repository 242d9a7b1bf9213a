/** What the predefined variables of a pipeline are made of: its project, commit, ref and source. */
export interface PipelineFacts {
  project: { id: number; path: string; full_path: string; visibility: string; default_branch: string | null }
  ref: string
  sha: string
  tag: boolean
  source: string
}

/** `CI_COMMIT_REF_SLUG`: lower case, anything but `0-9a-z` a `-`, at most 63, no `-` at either end. */
const slug = (ref: string) =>
  ref
    .toLowerCase()
    .replace(/[^0-9a-z]/g, '-')
    .slice(0, 63)
    .replace(/^-+|-+$/g, '')

/**
 * The predefined variables of a pipeline (`Gitlab::Ci::Variables::Builder`), those the emulator knows:
 * what `rules:if` sees when the pipeline is planned, and what its jobs see beside their own.
 */
export function predefinedVariables(input: PipelineFacts): Record<string, string> {
  const p = input.project
  const vars: Record<string, string> = {
    CI: 'true',
    GITLAB_CI: 'true',
    CI_PIPELINE_SOURCE: input.source,
    CI_COMMIT_SHA: input.sha,
    CI_COMMIT_SHORT_SHA: input.sha.slice(0, 8),
    CI_COMMIT_REF_NAME: input.ref,
    CI_COMMIT_REF_SLUG: slug(input.ref),
    CI_PROJECT_ID: String(p.id),
    CI_PROJECT_NAME: p.path,
    CI_PROJECT_PATH: p.full_path,
    CI_PROJECT_NAMESPACE: p.full_path.slice(0, Math.max(0, p.full_path.lastIndexOf('/'))),
    CI_PROJECT_VISIBILITY: p.visibility,
  }
  if (p.default_branch) vars.CI_DEFAULT_BRANCH = p.default_branch
  if (input.tag) vars.CI_COMMIT_TAG = input.ref
  else vars.CI_COMMIT_BRANCH = input.ref
  return vars
}
