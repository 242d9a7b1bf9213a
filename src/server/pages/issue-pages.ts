import { IssueListQuery, NoteListQuery, type Issue, type LabelDetail, type Note } from '../../schema/index.js'
import { recordNotFound } from '../grape/gitlab-errors.js'
import { parseParams } from '../grape/params.js'
import type { Access, Actor } from '../services/access.js'
import type { Services } from '../services/index.js'
import { DOT, html, type Html } from './html.js'
import { layout, pager, statusBadge, table, type PageContext } from './layout.js'
import { pathOf, pageNumber, userPath } from './links.js'
import { projectCrumbs, projectNav } from './project-pages.js'
import { paragraphs } from './text.js'

const STATES = ['opened', 'closed', 'all'] as const
type State = (typeof STATES)[number]
const PER_PAGE = 20
/** Notes on one page of an issue; more go to `?notes_page=2` and on. */
const NOTES_PER_PAGE = 100

/** A label colour as GitLab stores it (`#rgb`, `#rrggbb`) or a CSS colour name; anything else is not put in a style. */
const safeColor = (color: string) => (/^#[0-9a-f]{3,8}$|^[a-z]{3,20}$/i.test(color) ? color : undefined)

/** A label in its colours, its name always written. */
export function labelBadge(label: LabelDetail | string): Html {
  if (typeof label === 'string') return html`<span class="label">${label}</span>`
  const bg = safeColor(label.color)
  const fg = safeColor(label.text_color)
  const style = bg && fg ? `background-color:${bg};color:${fg}` : undefined
  return html`<span
    class="label"
    ${style ? html` style="${style}"` : null}${label.description ? html` title="${label.description}"` : null}
    >${label.name}</span
  >`
}

/**
 * A page of a project's issues as records, the list's query written as a URL's would be (the
 * service hands records out as JSON, as the API sends them), with its count when it has one.
 */
export function projectIssues(
  deps: { access: Access; services: Services },
  actor: Actor,
  fullPath: string,
  query: Record<string, unknown>,
): { issues: Issue[]; total?: number; hasMore?: boolean } {
  const project = deps.access.project(actor, fullPath)
  const q = parseParams(IssueListQuery, { with_labels_details: 'true', ...query })
  const page = deps.services.issues.list(actor, { kind: 'project', project }, q, JSON.stringify)
  return {
    issues: page.issues.map((text) => JSON.parse(text) as Issue),
    total: page.total,
    hasMore: page.hasMore,
  }
}

/** `/<full_path>/-/issues`: a project's issues by state, 20 a page, newest first (`Projects::IssuesController#index`). */
export function issueListPage(
  ctx: PageContext,
  deps: { access: Access; services: Services },
  fullPath: string,
  query: Record<string, unknown>,
): Html {
  const { actor } = ctx.visitor
  const p = deps.services.projects.get(actor, fullPath)
  const state: State = STATES.includes(query.state as State) ? (query.state as State) : 'opened'
  const page = pageNumber(query.page)
  const result = projectIssues(deps, actor, fullPath, {
    state,
    page: String(page),
    per_page: String(PER_PAGE),
  })
  const { issues } = result
  const base = pathOf(p.path_with_namespace, 'issues')
  const link = (s: State, n = 1) => `${base}?state=${s}${n > 1 ? `&page=${n}` : ''}`
  const more = result.total !== undefined ? page * PER_PAGE < result.total : result.hasMore === true
  return layout(ctx, {
    title: 'Issues',
    crumbs: projectCrumbs(p, [{ text: 'Issues', href: base }]),
    body: html`${projectNav(p)}
      <nav aria-label="Issue state">
        <ul class="filters">
          ${STATES.map(
            (s) =>
              html`<li>
                <a href="${link(s)}" ${s === state ? html` aria-current="page"` : null}
                  >${s === 'opened' ? 'Open' : s === 'closed' ? 'Closed' : 'All'}</a
                >
              </li>`,
          )}
        </ul>
      </nav>
      ${result.total === undefined ? null : html`<p class="muted">${result.total} ${result.total === 1 ? 'issue' : 'issues'}</p>`}
      ${
        issues.length === 0
          ? html`<p>No issues to show.</p>`
          : table(
              ['Issue', 'State', 'Labels', 'Assignees'],
              issues.map((i) => [
                html`<a href="${pathOf(p.path_with_namespace, 'issues', i.iid)}">${i.title}</a>
                  <span class="muted">#${i.iid}</span>`,
                statusBadge(i.state),
                html`${i.labels.map((l) => html`${labelBadge(l)} `)}`,
                html`${i.assignees.map((a) => html`<a href="${userPath(a.username)}">${a.name}</a> `)}`,
              ]),
              `Issues, ${state === 'all' ? 'all states' : state}, newest first`,
            )
      }
      ${pager('Pages', page, more, (n) => link(state, n))}`,
  })
}

/** One note: a comment with its author and time, or a system note, set apart and in one line. */
function noteItem(n: Note): Html {
  const author = html`<a href="${userPath(n.author.username)}">${n.author.name}</a>`
  const when = html`<time datetime="${n.created_at}">${n.created_at}</time>`
  if (n.system)
    return html`<li class="system" id="note_${n.id}">
      <span class="muted">System note:</span> ${author} ${n.body} ${DOT} ${when}
    </li>`
  return html`<li id="note_${n.id}">
    <p>${author} commented ${n.internal ? html`<span class="badge">internal</span>` : null} ${DOT} ${when}</p>
    ${paragraphs(n.body)}
  </li>`
}

/** `/<full_path>/-/issues/<iid>`: an issue, its facts and its notes in order (`Projects::IssuesController#show`). */
export function issuePage(
  ctx: PageContext,
  deps: { access: Access; services: Services },
  fullPath: string,
  iid: number,
  query: Record<string, unknown>,
): Html {
  const { actor } = ctx.visitor
  const project = deps.access.project(actor, fullPath)
  const p = deps.services.projects.get(actor, fullPath)
  const [issue] = projectIssues(deps, actor, fullPath, { iids: [String(iid)], state: 'all' }).issues
  if (!issue) throw recordNotFound()
  const notesPage = pageNumber(query.notes_page)
  const notes = deps.services.notes.listForPage(
    actor,
    project,
    iid,
    parseParams(NoteListQuery, { sort: 'asc', per_page: String(NOTES_PER_PAGE), page: String(notesPage) }),
  )
  const self = pathOf(p.path_with_namespace, 'issues', iid)
  const moreNotes = notesPage * NOTES_PER_PAGE < notes.total || notes.hasMore
  const t = issue.time_stats
  return layout(ctx, {
    title: issue.title,
    crumbs: projectCrumbs(p, [
      { text: 'Issues', href: pathOf(p.path_with_namespace, 'issues') },
      { text: `#${issue.iid}`, href: self },
    ]),
    body: html`${projectNav(p)}
      <p>
        ${statusBadge(issue.state)} Issue #${issue.iid} opened
        <time datetime="${issue.created_at}">${issue.created_at}</time> by
        <a href="${userPath(issue.author.username)}">${issue.author.name}</a
        >${issue.confidential ? html` <span class="badge">confidential</span>` : null}
      </p>
      <section aria-labelledby="description">
        <h2 id="description">Description</h2>
        ${issue.description ? paragraphs(issue.description) : html`<p class="muted">No description.</p>`}
      </section>
      <section aria-labelledby="details">
        <h2 id="details">Details</h2>
        <dl class="facts">
          <dt>Assignees</dt>
          <dd>
            ${issue.assignees.length === 0 ? 'None' : issue.assignees.map((a, n) => html`${n > 0 ? ', ' : null}<a href="${userPath(a.username)}">${a.name}</a>`)}
          </dd>
          <dt>Labels</dt>
          <dd>${issue.labels.length === 0 ? 'None' : issue.labels.map((l) => html`${labelBadge(l)} `)}</dd>
          <dt>Milestone</dt>
          <dd>${issue.milestone ? issue.milestone.title : 'None'}</dd>
          <dt>Due date</dt>
          <dd>${issue.due_date ?? 'None'}</dd>
          <dt>Time estimate</dt>
          <dd>${t.human_time_estimate ?? 'None'}</dd>
          <dt>Time spent</dt>
          <dd>${t.human_total_time_spent ?? 'None'}</dd>
        </dl>
      </section>
      <section aria-labelledby="activity">
        <h2 id="activity">Activity</h2>
        ${
          notes.notes.length === 0
            ? html`<p class="muted">No notes yet.</p>`
            : html`<ol class="notes">
                ${notes.notes.map(noteItem)}
              </ol>`
        }
        ${pager('Note pages', notesPage, moreNotes, (n) => `${self}?notes_page=${n}`, [
          'Earlier notes',
          'Later notes',
        ])}
      </section>`,
  })
}
