import { formatBytes, formatDuration } from '../connection.js'
import { urlOnHost } from '../server-text.js'
import {
  bullets,
  code,
  details,
  escapeHtml,
  facts,
  heading,
  Html,
  join,
  link,
  para,
  pre,
  table,
  type ListItem,
} from '../summary.js'
import type { DownstreamNode } from './downstream.js'
import type { Settings } from './inputs.js'
import type { JobTail, TriggerResult } from './result.js'

const ICON: Record<string, string> = {
  success: '✅',
  failed: '❌',
  canceled: '⛔',
  skipped: '⏭️',
  manual: '✋',
}
const icon = (status: string | undefined) => ICON[status ?? ''] ?? '⏳'

type Url = (href: string) => string | undefined

/** One bridge and what it started, as a list item with its own downstream bridges below. */
function treeItem(n: DownstreamNode, url: Url): ListItem {
  const p = n.pipeline
  const target = p
    ? [`${icon(p.status)} `, link(`${n.kind} pipeline ${p.id}`, url(p.web_url)), `: ${p.status}`]
    : [`no downstream pipeline${n.bridge.failure_reason ? ` (${n.bridge.failure_reason})` : ''}`]
  const effect =
    p?.status === 'failed' || n.bridge.status === 'failed'
      ? n.counts
        ? ' (fails the parent)'
        : n.bridge.allow_failure
          ? ' (allowed to fail)'
          : ' (does not fail the parent: no strategy: depend)'
      : ''
  const cells = [
    'bridge ',
    code(n.bridge.name),
    ` (${n.bridge.status}) → `,
    ...target,
    effect,
    n.note ? `; ${n.note}` : '',
  ]
  return {
    cell: new Html(cells.map((c) => (c instanceof Html ? c.html : escapeHtml(c))).join('')),
    items: n.children.map((c) => treeItem(c, url)),
  }
}

/** A failed job's log tail, folded away, with its link. */
const tailBlock = (t: JobTail, url: Url) =>
  details(
    `❌ ${t.job.name} (${t.job.stage}) in ${t.where}: ${t.error ? 'log not read' : `last ${t.lines.length} lines`}`,
    new Html(
      join(
        t.error ? para(t.error) : pre(t.lines),
        para(link(`Job ${t.job.id} on GitLab`, url(t.job.web_url)), t.job.failure_reason ?? ''),
      ),
    ),
  )

/** The job summary of trigger-pipeline: the pipeline, its outcome, the downstream tree, failed job logs, artifacts. Escaped. */
export function renderSummary(s: Settings, r: TriggerResult): string {
  const p = r.pipeline
  const names = Object.keys(s.variables ?? {})
  const inputs = Object.keys(s.inputs ?? {})
  const outcome =
    r.ended === 'aborted' || r.ended === 'timeout'
      ? `${r.canceledOnAbort ? 'canceled' : 'left running'} (${r.ended === 'timeout' ? 'timeout' : 'stopped waiting'})`
      : p.status
  // Links only to the configured GitLab: a hostile answer must not plant another address here.
  const url = (href: string) => urlOnHost(href, s.gitlabUrl)
  return join(
    heading(`${icon(p.status)} GitLab pipeline ${p.id}: ${outcome}`),
    facts([
      ['Project', link(s.project, url(p.web_url.replace(/\/-\/pipelines\/\d+$/, '')))],
      ['Ref', code(s.ref)],
      ['Pipeline', link(`#${p.iid} (id ${p.id})`, url(p.web_url))],
      ['Commit', code(p.sha.slice(0, 12))],
      ['Status', p.status],
      ['Waited', r.waited ? formatDuration(r.elapsedMs ?? 0) : 'no (wait: false)'],
      ['Variables', names.length ? names.join(', ') : undefined],
      ['Inputs', inputs.length ? inputs.join(', ') : undefined],
    ]),
    r.failedJobs.length > 0 &&
      table(
        ['Failed job', 'Stage', 'Reason'],
        r.failedJobs.map((j) => [link(j.name, url(j.web_url)), j.stage, j.failure_reason ?? 'failed']),
      ),
    r.downstream !== undefined && r.downstream.length > 0 && heading('Downstream pipelines', 3),
    r.downstream !== undefined &&
      r.downstream.length > 0 &&
      bullets([
        {
          cell: new Html(
            `${icon(p.status)} ${link(`pipeline ${p.id}`, url(p.web_url)).html}: ${escapeHtml(p.status)}`,
          ),
          items: r.downstream.map((n) => treeItem(n, url)),
        },
      ]),
    r.tails !== undefined && r.tails.length > 0 && heading('Failed job logs', 3),
    ...(r.tails ?? []).map((t) => tailBlock(t, url)),
    r.artifacts !== undefined && heading('Artifacts', 3),
    r.artifacts !== undefined &&
      table(
        ['Job', 'Folder', 'Files', 'Size'],
        r.artifacts.jobs.map((j) => [j.name, code(j.folder), j.files, formatBytes(j.bytes)]),
      ),
    r.artifacts !== undefined &&
      [...r.artifacts.missing, ...r.artifacts.errors].length > 0 &&
      para([...r.artifacts.missing, ...r.artifacts.errors].join(' ')),
    r.failure !== undefined && para(r.failure),
  )
}
