import type { Instance } from '../present/context.js'
import type { PageVisitor } from '../services/page-sessions.js'
import { DOT, Html, html } from './html.js'

/** What every page knows about its request. */
export interface PageContext {
  instance: Instance
  visitor: PageVisitor
  /** The request's path and query, for the sign-in link's way back. */
  url: string
}

/*
 * One stylesheet, inline (no external assets, nothing to build). Colours are GitLab's, each text
 * colour at least 4.5:1 against its background (WCAG AA); a status is always written as a word too.
 */
export const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f1e24;background:#fff}
a{color:#0b5cad}a:focus,button:focus,input:focus,select:focus{outline:3px solid #1f75cb;outline-offset:2px}
header{background:#2b2838;color:#fff;padding:.5rem 1rem;display:flex;gap:1rem;align-items:center;flex-wrap:wrap}
header a{color:#fff}header nav{display:flex;gap:1rem;align-items:center;flex:1;flex-wrap:wrap}
header .who{margin-left:auto;display:flex;gap:.75rem;align-items:center}
header form{margin:0}
main{max-width:64rem;margin:0 auto;padding:1rem}
footer{max-width:64rem;margin:2rem auto;padding:1rem;color:#535158;border-top:1px solid #dcdcde}
h1{font-size:1.75rem;margin:.5rem 0 1rem}h2{font-size:1.25rem;margin:1.5rem 0 .5rem}h3{font-size:1.05rem;margin:1rem 0 .25rem}
.muted{color:#535158}
.crumbs ol{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem;padding:0;margin:0}
.crumbs li+li::before{content:"/";margin-right:.25rem;color:#535158}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dl.facts dt{font-weight:600}dl.facts dd{margin:0}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid #dcdcde;vertical-align:top}
.badge,.status,.label{display:inline-block;padding:0 .5rem;border-radius:1rem;font-size:.875rem;white-space:nowrap}
.badge{background:#ececef;color:#3a383f}
.status{background:#dcdcde;color:#3a383f}
.status-success,.status-opened,.status-finished{background:#c3e6cd;color:#24663b}
.status-failed,.status-canceled{background:#fdd4cd;color:#ae1800}
.status-running,.status-pending,.status-started,.status-scheduled,.status-queued{background:#cbe2f9;color:#0b5cad}
.status-closed{background:#e1d8f9;color:#5943b6}
.label{border:1px solid #737278}
ol.notes{list-style:none;padding:0}ol.notes>li{border:1px solid #dcdcde;border-radius:.25rem;padding:.5rem 1rem;margin:.5rem 0}
ol.notes>li.system{border:0;border-left:3px solid #a4a3a8;background:#fbfafd;color:#3a383f;font-size:.9rem}
pre.trace{background:#1f1e24;color:#ececef;padding:1rem;overflow:auto;white-space:pre-wrap}
.counts{display:flex;gap:1rem;flex-wrap:wrap;list-style:none;padding:0}
.counts li{border:1px solid #dcdcde;border-radius:.25rem;padding:.5rem 1rem;min-width:8rem}
.counts strong{display:block;font-size:1.5rem}
button{font:inherit;padding:.25rem .75rem;border-radius:.25rem;border:1px solid #737278;background:#fff;color:#1f1e24;cursor:pointer}
button.danger{background:#ae1800;border-color:#ae1800;color:#fff}
header button{background:transparent;color:#fff;border-color:#fff}
label{display:block;font-weight:600;margin:.5rem 0 .25rem}
input[type=password],input[type=text]{font:inherit;padding:.35rem .5rem;border:1px solid #737278;border-radius:.25rem;width:100%;max-width:28rem}
.filters{display:flex;gap:.5rem;flex-wrap:wrap;list-style:none;padding:0}
.filters a[aria-current]{font-weight:700;text-decoration:none;color:#1f1e24}
.pager{display:flex;gap:1rem;margin:1rem 0}
.error{color:#ae1800}
.scroll{overflow-x:auto}td code{overflow-wrap:anywhere}
form.fields{display:flex;flex-wrap:wrap;gap:0 1rem;align-items:flex-end;margin:.5rem 0}form.fields .actions{display:flex;gap:1rem;align-items:center;padding-bottom:.25rem}
select,input[type=number]{font:inherit;padding:.3rem .5rem;border:1px solid #737278;border-radius:.25rem;background:#fff;color:#1f1e24}
table.code td{border:0;padding:0 .5rem;font-family:ui-monospace,monospace;white-space:pre}table.code td.ln{text-align:right;color:#535158}pre.message{white-space:pre-wrap}
form.fields input[type=text]{width:14rem}form.fields input[type=number]{width:8rem}
`

/** A link trail above the heading (`nav` with `aria-label`, the last item the current page; an item without `href` is text). */
export function crumbs(items: { text: string; href?: string }[]): Html {
  return html`<nav class="crumbs" aria-label="Breadcrumb">
    <ol>
      ${items.map((item, n) =>
        item.href === undefined
          ? html`<li>${item.text}</li>`
          : html`<li>
              <a href="${item.href}" ${n === items.length - 1 ? html` aria-current="page"` : null}
                >${item.text}</a
              >
            </li>`,
      )}
    </ol>
  </nav>`
}

/** A status as a word with its colour (`status-<name>`). */
export const statusBadge = (status: string): Html =>
  html`<span class="status status-${status}">${status}</span>`

/** The signed-in person and sign-out, or the sign-in link. */
function who(ctx: PageContext): Html {
  const user = ctx.visitor.actor.user
  if (!user || !ctx.visitor.csrf) {
    const back = encodeURIComponent(ctx.url)
    return html`<div class="who"><a href="/users/sign_in?redirect_to=${back}">Sign in</a></div>`
  }
  return html`<div class="who">
    <a href="/${user.username}">${user.name} (@${user.username})</a>
    <form method="post" action="/users/sign_out">
      <input type="hidden" name="authenticity_token" value="${ctx.visitor.csrf}" /><button type="submit">
        Sign out
      </button>
    </form>
  </div>`
}

/**
 * A whole page: `lang`, the title, an empty icon (no request for `/favicon.ico`), a banner with the
 * main navigation, one `main` whose `h1` is the title (pages start their own headings at `h2`), a
 * footer with the release.
 */
export function layout(ctx: PageContext, page: { title: string; crumbs?: Html; body: Html }): Html {
  const admin = ctx.visitor.actor.admin
  return html`<!DOCTYPE html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href="data:," />
        <title>${page.title} ${DOT} GitLab</title>
        <style>
          ${new Html(STYLE)}
        </style>
      </head>
      <body>
        <header>
          <nav aria-label="Main">
            <a href="/explore/projects">GitLab (emulator)</a>
            ${admin ? html`<a href="/-/emulator">Emulator</a>` : null}
          </nav>
          ${who(ctx)}
        </header>
        <main id="content">
          ${page.crumbs ?? null}
          <h1>${page.title}</h1>
          ${page.body}
        </main>
        <footer>
          <p>
            GitLab ${ctx.instance.edition === 'ee' ? 'Enterprise' : 'Community'} Edition
            ${ctx.instance.version}, emulated by gitlab-actions' reference server.
          </p>
        </footer>
      </body>
    </html> `
}

/** Links to the previous and next pages of a list, `href(n)` the address of page `n`. */
export function pager(
  label: string,
  page: number,
  hasNext: boolean,
  href: (n: number) => string,
  words: [string, string] = ['Previous page', 'Next page'],
): Html {
  return html`<nav class="pager" aria-label="${label}">
    ${page > 1 ? html`<a href="${href(page - 1)}" rel="prev">${words[0]}</a>` : null}
    ${hasNext ? html`<a href="${href(page + 1)}" rel="next">${words[1]}</a>` : null}
  </nav>`
}

/** A table: its column headings, then one row of cells per item. */
export function table(columns: string[], rows: Html[][], caption?: string): Html {
  return html`<table>
    ${
      caption
        ? html`<caption class="muted">
            ${caption}
          </caption>`
        : null
    }
    <thead>
      <tr>
        ${columns.map((c) => html`<th scope="col">${c}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${rows.map(
        (cells) =>
          html`<tr>
            ${cells.map((cell) => html`<td>${cell}</td>`)}
          </tr>`,
      )}
    </tbody>
  </table>`
}
