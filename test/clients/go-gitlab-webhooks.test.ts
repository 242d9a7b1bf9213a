/*
 * go-gitlab's webhook parser (`gitlab.ParseWebhook`, go_gitlab_webhooks.go) reads what the reference
 * server delivers, as a Go receiver would: each body by its `X-Gitlab-Event` header into go-gitlab's
 * typed event (issue, comments on an issue and a commit, push, tag push, pipeline, job, deployment),
 * with no decoding error (a number sent as text or an object where go-gitlab expects a string fails).
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { commitFiles } from '../support/ci-files.js'
import { goProgram, run } from '../support/go-gitlab.js'
import { eventually, hookReceiver } from '../support/hook-receiver.js'
import { manualClock, MARK_TRIGGER, pipelineSeed, runOut } from '../support/pipeline-seed.js'
import { serverEach } from '../support/server.js'

const parse = goProgram('go_gitlab_webhooks.go')

let clock: ReturnType<typeof manualClock>
const t = serverEach(pipelineSeed, () => ({ clock: (clock = manualClock()), allowLocalRequests: true }))
const APP = '/api/v4/projects/acme%2Fapp'
const token = 'glpat-mark-token'

it('go-gitlab parses every kind of delivery into its typed event', async () => {
  const receiver = await hookReceiver()
  try {
    const hook = await t.http('POST', `${APP}/hooks`, {
      token,
      json: {
        url: receiver.url,
        push_events: true,
        tag_push_events: true,
        issues_events: true,
        note_events: true,
        pipeline_events: true,
        job_events: true,
        deployment_events: true,
      },
    })
    expect(hook.status).toBe(201)
    const issue = await t.http('POST', `${APP}/issues`, { token, json: { title: 'Parsed', labels: 'bug' } })
    expect(issue.status).toBe(201)
    expect(
      (await t.http('POST', `${APP}/issues/1/notes`, { token, json: { body: 'A comment' } })).status,
    ).toBe(201)
    const sha = await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': 'deploy:\n  stage: deploy\n  environment: { name: production }\n  script: [echo]\n',
    })
    const tag = await t.http('POST', `${APP}/repository/tags`, {
      token,
      json: { tag_name: 'v1', ref: 'main' },
    })
    expect(tag.status).toBe(201)
    const comment = await t.http('POST', `${APP}/repository/commits/${sha}/comments`, {
      token,
      json: { note: 'Nice commit' },
    })
    expect(comment.status).toBe(201)
    const pipeline = await t.http('POST', `${APP}/trigger/pipeline`, { form: `ref=ci&token=${MARK_TRIGGER}` })
    expect(pipeline.status).toBe(201)
    await runOut(t, clock, { steps: 10 })
    const kinds = (r: { headers: Record<string, unknown> }) => String(r.headers['x-gitlab-event'])
    await eventually(
      async () => receiver.got.map(kinds),
      (got) => got.filter((kind) => kind === 'Deployment Hook').length >= 2 && got.includes('Pipeline Hook'),
    )
    const file = join(parse.dir, 'deliveries.json')
    await writeFile(file, JSON.stringify(receiver.got.map((r) => ({ event: kinds(r), body: r.raw }))))
    const { stdout } = await run(parse.path, [file], { timeout: 60_000 })
    const parsed = JSON.parse(stdout) as [string, ...unknown[]][]
    const first = (type: string) => parsed.find(([name]) => name === type)
    expect(first('IssueEvent')).toEqual(['IssueEvent', 'acme/app', 1, 'Parsed', 'opened', 'open', 'mark', 1])
    expect(first('IssueCommentEvent')).toEqual(['IssueCommentEvent', 'acme/app', 1, 'A comment', 'mark'])
    expect(first('CommitCommentEvent')).toEqual(['CommitCommentEvent', 'acme/app', true, 'Nice commit'])
    expect(first('PushEvent')).toEqual(['PushEvent', 'acme/app', 'refs/heads/ci', 1, 1, true, 'mark'])
    expect(first('TagEvent')).toEqual(['TagEvent', 'acme/app', 'refs/tags/v1', true])
    expect(parsed.filter(([name]) => name === 'PipelineEvent').map((p) => p[3])).toContain('success')
    expect(first('PipelineEvent')).toEqual([
      'PipelineEvent',
      'acme/app',
      'ci',
      'pending',
      'trigger',
      1,
      'mark',
    ])
    expect(first('JobEvent')).toEqual([
      'JobEvent',
      'acme / app',
      'ci',
      'deploy',
      'deploy',
      'pending',
      true,
      'mark',
    ])
    expect(parsed.filter(([name]) => name === 'DeploymentEvent').map((d) => d[3])).toEqual([
      'running',
      'success',
    ])
    expect(first('DeploymentEvent')).toEqual([
      'DeploymentEvent',
      'acme/app',
      'production',
      'running',
      true,
      8,
      'mark',
    ])
  } finally {
    await receiver.close()
  }
})
