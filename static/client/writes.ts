/**
 * Who may change the count (COUNTER_WRITES, rendered as `data-writes` on the page): when the
 * viewer lacks the sign-in the policy asks for, the command buttons are disabled and the page says
 * "Sign in to change the count" (or "with a passkey") with a link to /login, instead of failing.
 * Decided once the session is known, and again when a command is refused with 401 (a session that
 * expired meanwhile).
 */
import { missingSignIn, WRITES_NOTES } from '../../src/counter/pages/format.ts';
import type { PageElements } from './elements.ts';
import type { PageSession } from './session-menu.ts';

export class WritesGate {
  readonly #el: PageElements;
  readonly #policy: string;

  constructor(el: PageElements) {
    this.#el = el;
    this.#policy = el.hero.dataset['writes'] ?? 'anyone';
  }

  /** The session the page learned: show or hide the note for it. */
  sessionKnown(session: PageSession): void {
    this.#show(missingSignIn(this.#policy, session));
  }

  /** A command answered 401: the session it needed is gone (or too weak), so the page asks for it. */
  refused(): void {
    this.#show(this.#policy === 'aal2' ? 'passkey' : 'sign-in');
  }

  #show(missing: keyof typeof WRITES_NOTES | undefined): void {
    this.#el.writesNote.hidden = missing === undefined;
    if (missing !== undefined) this.#el.writesSignIn.textContent = WRITES_NOTES[missing];
    for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-command]')) button.disabled = missing !== undefined;
  }
}
