/**
 * The auth pages' client (/login, /dashboard, the sign-in error page): the header menu, the live
 * password hint, local times, fetch-based session revocation and passkeys. Everything but passkeys
 * (which need the browser's WebAuthn API) is an enhancement: each page's core action is a plain form post.
 */
import { bindMenu, loadSession } from '../session-menu.ts';
import { localizeTimes } from '../local-times.ts';
import { bindPasskeys } from './passkeys.ts';
import { bindPasswordHint } from './password-hint.ts';
import { bindSessionForms } from './sessions.ts';

bindMenu();
// The error page does not read the session: its header asks, like the counter page's.
void loadSession();
bindPasswordHint(document.querySelector<HTMLInputElement>('#register-password'));
localizeTimes();
bindSessionForms();
bindPasskeys();
document.documentElement.dataset['ready'] = 'true';
