import { formatDuration } from '../connection.js'
import { urlOnHost } from '../server-text.js'
import { code, facts, heading, join, link, para, table } from '../summary.js'
import type { Settings } from './inputs.js'
import type { TriggerResult } from './result.js'

const ICON: Record<string, string> = {
  success: '✅',
  failed: '❌',
  canceled: '⛔',
  skipped: '⏭️',
  manual: '✋',
}

/** The job summary of trigger-pipeline: the pipeline, its outcome, and the failed jobs. Escaped. */
export function renderSummary(s: Settings, r: TriggerResult): string {
  const p = r.pipeline
  const names = Object.keys(s.variables ?? {})
  const outcome =
    r.ended === 'aborted' || r.ended === 'timeout'
      ? `${r.canceledOnAbort ? 'canceled' : 'left running'} (${r.ended === 'timeout' ? 'timeout' : 'stopped waiting'})`
      : p.status
  // Links only to the configured GitLab: a hostile answer must not plant another address here.
  const url = (href: string) => urlOnHost(href, s.gitlabUrl)
  return join(
    heading(`${ICON[p.status] ?? '⏳'} GitLab pipeline ${p.id}: ${outcome}`),
    facts([
      ['Project', link(s.project, url(p.web_url.replace(/\/-\/pipelines\/\d+$/, '')))],
      ['Ref', code(s.ref)],
      ['Pipeline', link(`#${p.iid} (id ${p.id})`, url(p.web_url))],
      ['Commit', code(p.sha.slice(0, 12))],
      ['Status', p.status],
      ['Waited', r.waited ? formatDuration(r.elapsedMs ?? 0) : 'no (wait: false)'],
      ['Variables', names.length ? names.join(', ') : undefined],
    ]),
    r.failedJobs.length > 0 &&
      table(
        ['Failed job', 'Stage', 'Reason'],
        r.failedJobs.map((j) => [link(j.name, url(j.web_url)), j.stage, j.failure_reason ?? 'failed']),
      ),
    r.failure !== undefined && para(r.failure),
  )
}
