import type { FastifyReply, FastifyRequest } from 'fastify'
import { GitLabError } from '../grape/gitlab-errors.js'
import { readCookie } from '../http/cookies.js'
import type { Instance } from '../present/context.js'
import { SESSION_COOKIE, type PageSessions } from '../services/page-sessions.js'
import { html, type Html } from './html.js'
import { layout, type PageContext } from './layout.js'

/*
 * Pages carry their own CSS and nothing else: no script may run, nothing loads from elsewhere, and
 * forms post only to this origin. A page is never cached (it shows what a session may see).
 */
const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'self'; base-uri 'none'"

/** A service's refusal that a page shows as GitLab's 404 page (401, 403 and 404 alike). */
export const isHidden = (err: unknown): boolean =>
  err instanceof GitLabError && [401, 403, 404].includes(err.status)

/** The page's context: the instance, and the visitor its session cookie names (anonymous without one). */
export function pageContext(req: FastifyRequest, instance: Instance, sessions: PageSessions): PageContext {
  return { instance, visitor: sessions.visitor(sessionCookie(req)), url: req.url }
}

/** The session cookie a request carries. */
export const sessionCookie = (req: FastifyRequest) => readCookie(req.headers.cookie, SESSION_COOKIE)

/** Answers with a page. */
export function sendPage(reply: FastifyReply, status: number, page: Html): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', CSP)
    .header('referrer-policy', 'strict-origin-when-cross-origin')
    .send(page.text)
}

/** GitLab's 404 page: what does not exist and what the visitor may not see look alike. */
export function notFoundPage(ctx: PageContext): Html {
  const signedIn = ctx.visitor.actor.user !== null
  return layout(ctx, {
    title: 'Page not found',
    body: html`<p>The page could not be found or you don't have permission to view it.</p>
      ${signedIn ? null : html`<p>If it is private, <a href="/users/sign_in?redirect_to=${encodeURIComponent(ctx.url)}">sign in</a> to see it.</p>`}`,
  })
}

/** Thrown by a page's renderer that sends the visitor elsewhere (a local path): a 302 to it. */
export class PageRedirect extends Error {
  constructor(readonly location: string) {
    super(`redirect to ${location}`)
  }
}

/**
 * Runs a page's renderer: its page with 200, a 302 for a `PageRedirect`, or GitLab's 404 page for
 * anything hidden or missing (the services' 401, 403 and 404 alike, so that a page never tells a
 * private thing exists).
 */
export function renderPage(reply: FastifyReply, ctx: PageContext, render: () => Html): FastifyReply {
  let page: Html
  try {
    page = render()
  } catch (err) {
    if (isHidden(err)) return sendPage(reply, 404, notFoundPage(ctx))
    if (err instanceof PageRedirect)
      return reply.header('cache-control', 'no-store').redirect(err.location, 302)
    throw err
  }
  return sendPage(reply, 200, page)
}

/** What `read` returns, or undefined when the visitor may not see it (a part of a page left out). */
export function ifAllowed<T>(read: () => T): T | undefined {
  try {
    return read()
  } catch (err) {
    if (isHidden(err)) return undefined
    throw err
  }
}
