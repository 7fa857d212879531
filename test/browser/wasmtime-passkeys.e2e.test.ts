/**
 * Passkeys in Chromium under the real `wasmtime serve` (the composed standalone component, file
 * store), with Chrome's virtual authenticator: register with a password, verify the address with
 * the mailed link (delivered by `npm run mail:drain` to a real SMTP server), add a passkey on the
 * account page with the password asked again, sign out, sign in with "Sign in with a passkey": the
 * session is aal2.
 */
import { describe, expect, it } from 'vitest';
import { addPasskeyOnAccountPage, sessionOf, signOutInPage, signUpVerified, withAuthenticator } from '../support/passkey-browser.ts';
import { startMailingWasmtime } from '../support/mailing-wasmtime.ts';
import { startedForSuite } from '../support/started-for-suite.ts';
import { withChromium } from '../support/with-chromium.ts';
import { requireTool } from '../../harness/tools.ts';
import { uniqueEmail } from '../auth/support.ts';

const wasmtime = requireTool('wasmtime');
const chromium = requireTool('chromium');
const python = requireTool('aiosmtpd');

describe.skipIf(!wasmtime || !chromium || !python)('passkeys under wasmtime serve in Chromium', () => {
  const setup = startedForSuite(() => withChromium(chromium!, startMailingWasmtime(wasmtime!, python!)), 600_000);

  it('adds a passkey, signs out and signs in with it: aal2', { timeout: 120_000 }, async () => {
    const { context, page, cdp, authenticatorId } = await withAuthenticator(setup().browser);
    const email = uniqueEmail('wasmtime-passkey');
    await signUpVerified(page, setup().origin, email, setup().mailTo);
    await addPasskeyOnAccountPage(page, 'Virtual key');
    // Signed out with the authenticator silent while /login loads, so the button signs in, not the autofill.
    await signOutInPage(page);
    await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled: false });
    await page.goto(`${setup().origin}/login`);
    await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled: true });
    await Promise.all([page.waitForURL(`${setup().origin}/dashboard`), page.click('#passkey-sign-in')]);
    expect(await page.textContent('#signed-in-as')).toContain(email);
    expect(await sessionOf(page)).toMatchObject({ authenticated: true, aal: 'aal2', method: 'passkey' });
    await context.close();
  });
});
