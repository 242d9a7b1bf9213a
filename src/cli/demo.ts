import { fileURLToPath } from 'node:url'
import { createClient } from '../api/client.js'
import { buildServer } from '../server/start/build-server.js'
import { loadSeedFile } from '../server/seed/parse.js'
import { demoActions } from './demo-actions.js'

const seedPath = fileURLToPath(new URL('../../examples/seed.yaml', import.meta.url))
const step = (text: string) => process.stdout.write(`\n== ${text}\n`)
const say = (text: string) => process.stdout.write(`   ${text}\n`)

/**
 * `npm run demo`: the reference server in-process with examples/seed.yaml, driven through the
 * typed client as a user's script would drive GitLab. Prints what it does; exits 0 on success.
 */
export async function demo(_argv: string[]): Promise<number> {
  const server = await buildServer({ seed: await loadSeedFile(seedPath) })
  const baseUrl = await server.listen({ host: '127.0.0.1', port: 0 })
  try {
    say(`reference server listening on ${baseUrl} (seed: examples/seed.yaml)`)
    const root = createClient({ baseUrl, token: 'glpat-root-token' })
    const alice = createClient({ baseUrl, token: 'glpat-alice-token' })
    const carol = createClient({ baseUrl, token: 'glpat-carol-token' })

    step('Who am I, and which GitLab is this?')
    const version = await root.version()
    const me = await alice.users.current()
    say(`GitLab ${version.version}, signed in as ${me.username} (${me.name})`)

    step('Open bugs of acme/widgets, newest first (GET /projects/:id/issues?labels=bug&state=opened)')
    for await (const issue of alice.issues.list('acme/widgets', { labels: ['bug'], state: 'opened' }))
      say(`#${issue.iid} ${issue.title}  [${(issue.labels as string[]).join(', ')}]  ${issue.web_url}`)

    step('File a new issue; unknown labels are created on first use')
    const created = await alice.issues.create('acme/widgets', {
      title: 'Widgets wobble at high speed',
      description: '- [ ] reproduce\n- [ ] fix',
      labels: ['bug', 'performance'],
    })
    say(`created #${created.iid} "${created.title}" labels=${JSON.stringify(created.labels)}`)
    say(
      `task_completion_status=${JSON.stringify(created.task_completion_status)} subscribed=${created.subscribed}`,
    )

    step('Edit it: assign, add a label, then close it')
    const bob = (await alice.issues.get('acme/widgets', 1)).assignees[0]
    await alice.issues.update('acme/widgets', created.iid, {
      assignee_ids: bob ? [bob.id] : [],
      add_labels: ['triage'],
    })
    const closed = await alice.issues.update('acme/widgets', created.iid, { state_event: 'close' })
    say(`#${closed.iid} is ${closed.state}, closed by ${closed.closed_by?.username} at ${closed.closed_at}`)

    step('Private projects stay invisible to outsiders (404, as GitLab answers)')
    try {
      await carol.issues.get('acme/widgets', 1)
      say('unexpected: carol could read a private project')
      return 1
    } catch (err) {
      say(`carol gets: ${err instanceof Error ? err.message : String(err)}`)
    }

    step('Every issue of every project root can see, 100 per page, lazily')
    let count = 0
    for await (const issue of root.issues.listAll({ scope: 'all' })) {
      count++
      if (count <= 3) say(`${issue.references.full}  ${issue.title}`)
    }
    say(`... ${count} issues in all`)
    if (!(await demoActions(baseUrl, step, say))) return 1

    step(`Time tracking on #${created.iid}: estimate, spent time with a summary, time_stats`)
    const estimated = await alice.timeTracking.setEstimate('acme/widgets', created.iid, '1d 2h')
    say(`POST .../time_estimate duration=1d 2h -> time_estimate=${estimated.time_estimate}s (1d = 8h)`)
    await alice.timeTracking.addSpent('acme/widgets', created.iid, '3h30m', 'Reproduced the wobble')
    say('POST .../add_spent_time duration=3h30m summary="Reproduced the wobble"')
    const stats = await alice.timeTracking.stats('acme/widgets', created.iid)
    say(`time_stats: ${JSON.stringify(stats)}`)
    say(`in GitLab's words: estimate ${stats.human_time_estimate}, spent ${stats.human_total_time_spent}`)

    step('Move acme/widgets#4 to opensource/toolkit (POST .../move); labels follow by name')
    const toolkit = await alice.projects.get('opensource/toolkit')
    const before = await alice.issues.get('acme/widgets', 4)
    const moved = await alice.issueActions.move('acme/widgets', 4, { to_project_id: toolkit.id })
    say(`${before.references.full} "${before.title}" [${before.labels.join(', ')}]`)
    say(`  -> ${moved.references.full} (id ${moved.id}) [${moved.labels.join(', ')}] ${moved.web_url}`)
    const original = await alice.issues.get('acme/widgets', 4)
    say(`the original is ${original.state}, moved_to_id=${original.moved_to_id}`)
    step('Done')
    return 0
  } finally {
    await server.close()
  }
}
