import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Instance } from '../present/context.js'
import { SESSION_COOKIE, SESSION_SECONDS, type PageSessions } from '../services/page-sessions.js'
import { html, type Html } from './html.js'
import { layout, type PageContext } from './layout.js'
import { pageContext, sendPage, sessionCookie } from './respond.js'

/**
 * Where a visitor goes after signing in: a path of this server only (never `//elsewhere` or
 * `/\elsewhere`), in printable ASCII (a line break would split the `Location` header).
 */
function localPath(raw: unknown, fallback: string): string {
  return typeof raw === 'string' && /^\/(?![/\\])[\x21-\x7e]*$/.test(raw) ? raw : fallback
}

const field = (body: unknown, name: string): unknown =>
  typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined

/** The session cookie's header: HttpOnly, SameSite=Strict, Secure behind an https base URL. */
function sessionHeader(instance: Instance, value: string, maxAge: number): string {
  const secure = instance.baseUrl.startsWith('https:') ? '; Secure' : ''
  return `${SESSION_COOKIE}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure}`
}

function signInForm(ctx: PageContext, redirectTo: string, error?: string): Html {
  return layout(ctx, {
    title: 'Sign in',
    body: html`${error ? html`<p class="error" role="alert">${error}</p>` : null}
      <p>
        Browsers send no <code>PRIVATE-TOKEN</code>: sign in with a personal access token (scope
        <code>api</code> or <code>read_api</code>) to see what it may see. The session lasts a week; the API
        never accepts it.
      </p>
      <form method="post" action="/users/sign_in">
        <input type="hidden" name="redirect_to" value="${redirectTo}" />
        <label for="token">Personal access token</label>
        <input type="password" id="token" name="token" autocomplete="off" required />
        <p><button type="submit">Sign in</button></p>
      </form>`,
  })
}

/**
 * `GET /users/sign_in` (the form), `POST /users/sign_in` (a token in, the session cookie out, then
 * 303 back to where the visitor was) and `POST /users/sign_out` (with the session's CSRF token).
 * GitLab signs people in with a password (`Devise::SessionsController`); the emulator's users have
 * none, so a personal access token stands in for it.
 */
export function signInRoutes(app: FastifyInstance, instance: Instance, sessions: PageSessions): void {
  const context = (req: FastifyRequest) => pageContext(req, instance, sessions)
  app.get('/users/sign_in', async (req, reply) => {
    const query = req.query as Record<string, unknown>
    return sendPage(reply, 200, signInForm(context(req), localPath(query.redirect_to, '/explore/projects')))
  })
  app.post('/users/sign_in', async (req, reply: FastifyReply) => {
    const redirectTo = localPath(field(req.body, 'redirect_to'), '/explore/projects')
    const token = field(req.body, 'token')
    const session = typeof token === 'string' && token !== '' ? sessions.signIn(token) : null
    if (!session)
      return sendPage(
        reply,
        401,
        signInForm(context(req), redirectTo, 'Invalid, expired or read-less token.'),
      )
    return reply
      .code(303)
      .header('set-cookie', sessionHeader(instance, session, SESSION_SECONDS))
      .header('location', redirectTo)
      .header('cache-control', 'no-store')
      .send()
  })
  app.post('/users/sign_out', async (req, reply) => {
    if (!sessions.csrfMatches(sessionCookie(req), field(req.body, 'authenticity_token')))
      return sendPage(
        reply,
        422,
        layout(context(req), {
          title: 'Sign out refused',
          body: html`<p>The form had expired: reload the page and try again.</p>`,
        }),
      )
    return reply
      .code(303)
      .header('set-cookie', sessionHeader(instance, '', 0))
      .header('location', '/users/sign_in')
      .send()
  })
}
