import { html } from '../html.js'
import { csrfField, type EmulatorSection } from './section.js'

/**
 * The reset button: a same-origin form post to `POST /-/emulator/reset` with the session's CSRF
 * token (routes/emulator.ts); a post from another site is refused by the browser guard, carries
 * no session cookie (SameSite=Strict) and knows no token.
 */
export const reset: EmulatorSection = {
  id: 'reset',
  title: 'Reset',
  render({ ctx }) {
    return html`<p>Back to the seed the server started with: everything made through the API goes.</p>
      <form method="post" action="/-/emulator/reset">
        ${csrfField(ctx)}
        <button type="submit" class="danger">Reset to the seed</button>
      </form>`
  },
}
