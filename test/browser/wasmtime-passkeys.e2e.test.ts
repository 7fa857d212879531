/**
 * Passkeys in Chromium under the real `wasmtime serve` (the composed standalone component, file
 * store), with Chrome's virtual authenticator: register with a password, verify the address with
 * the mailed link (delivered by `npm run mail:drain` to a real SMTP server), add a passkey on the
 * account page with the password asked again, sign out, sign in with "Sign in with a passkey": the
 * session is aal2.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { freePort } from '../../harness/host-process.ts';
import { addPasskeyOnAccountPage, registerAndSignIn, sessionOf, verifyOnPage, withAuthenticator } from '../support/passkey-browser.ts';
import { drainedMailTo } from '../support/mail-drain.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { requireTool } from '../../harness/tools.ts';
import { startWasmtime, type WasmtimeProcess } from '../../harness/wasmtime-process.ts';
import { uniqueEmail } from '../auth/support.ts';

const wasmtime = requireTool('wasmtime');
const chromium = requireTool('chromium');
const python = requireTool('aiosmtpd');

describe.skipIf(!wasmtime || !chromium || !python)('passkeys under wasmtime serve in Chromium', () => {
  let server: WasmtimeProcess;
  let sink: SmtpSink;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    sink = await startSmtpSink(python!);
    const port = await freePort();
    base = `http://localhost:${port}`;
    [server, browser] = await Promise.all([startWasmtime({ port, guestEnv: { AUTH_PUBLIC_BASE_URL: base } }, wasmtime!.path), launchChromium(chromium!)]);
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await sink?.stop();
  });

  it('adds a passkey, signs out and signs in with it: aal2', { timeout: 120_000 }, async () => {
    const { context, page, cdp, authenticatorId } = await withAuthenticator(browser);
    const email = uniqueEmail('wasmtime-passkey');
    await registerAndSignIn(page, base, email);
    await verifyOnPage(page, base, linkIn(await drainedMailTo(server.dataDir, sink, email, 'Confirm your email address'), '/verify-email'));
    await addPasskeyOnAccountPage(page, 'Virtual key');
    // Signed out with the authenticator silent while /login loads, so the button signs in, not the autofill.
    await page.evaluate(() => fetch('/api/auth/logout', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }));
    await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled: false });
    await page.goto(`${base}/login`);
    await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled: true });
    await Promise.all([page.waitForURL(`${base}/dashboard`), page.click('#passkey-sign-in')]);
    expect(await page.textContent('#signed-in-as')).toContain(email);
    expect(await sessionOf(page)).toMatchObject({ authenticated: true, aal: 'aal2', method: 'passkey' });
    await context.close();
  });
});
