/**
 * `npm run screenshots`: regenerates docs/screenshots/ (shown in the README and docs/ui.md) from the
 * real host and component in Chromium: the counter page after a few commands so the ledger has rows
 * ({desktop,mobile}{,-dark}.png), and the sign-in and account pages with the local test OAuth
 * provider configured and a second browser signed in, so the sessions list has two rows, and a
 * passkey added (a software authenticator), so the passkeys card lists one (login-*.png,
 * account-*.png); and the mailed-link pages: "forgot password" and the new-password page a reset
 * link opens (forgot-*.png, reset-*.png; the link read from the host's console, where a
 * development host without SMTP_URL prints its mail), and the verification page opened signed in
 * (verify-*.png); the refusals a person meets: a locked-out sign-in (login-locked-*.png) and a
 * wrong current password (account-refused-*.png); a browser's 404 page (not-found-*.png) and the
 * API reference (api-docs-*.png); and the HTML part of each mail (mail-<name>-*.png, rendered
 * with APP_NAME "Counter", no images); the page a passkey-added mail's link opens (remove-passkeys-*.png),
 * a passkey that no account uses refused on the sign-in page (passkey-refused-*.png, a virtual
 * authenticator holding a credential the host never saw) and "forgot password" on a host with mail
 * off, as `npm start` runs (forgot-off-*.png). Pages are opened at http://localhost:<port>,
 * the public base URL, whose host is the passkeys' RP ID. Needs a build and /usr/bin/chromium (or
 * CHROMIUM=path).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import { DESKTOP, launchChromium, PHONE } from '../test/support/browser.ts';
import { freePort, ROOT, startHost } from '../harness/host-process.ts';
import { startOAuthFixture } from '../test/support/oauth-provider/fixture.ts';
import { requireTool } from '../harness/tools.ts';
import { SoftwarePasskey } from '../test/support/software-passkey.ts';
import { mailTexts } from '../src/auth/application/mail-texts.ts';

const chromiumTool = requireTool('chromium');
if (!chromiumTool) throw new Error('chromium is needed for screenshots');

const LAYOUTS = [
  ['desktop', DESKTOP],
  ['mobile', PHONE],
] as const;
const SCHEMES = ['light', 'dark'] as const;
const LAPTOP_UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0; rv:131.0) Gecko/20100101 Firefox/131.0';
const PASSWORD = 'a long and memorable passphrase';

const fileFor = (prefix: string, layout: string, scheme: string) => join(ROOT, 'docs', 'screenshots', `${prefix}${layout}${scheme === 'dark' ? '-dark' : ''}.png`);

/** One page in a fresh context (own cookies), optionally signed in, captured full-page (the long API reference: its first screen). */
async function shoot(browser: Browser, url: string, file: string, options: BrowserContextOptions, ready: string, cookie?: { name: string; value: string }, fullPage = true) {
  const context = await browser.newContext(options);
  try {
    if (cookie) await context.addCookies([{ ...cookie, url }]);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => void (message.type() === 'error' && problems.push(message.text())));
    await page.goto(url);
    await page.waitForSelector(ready);
    await page.screenshot({ path: file, fullPage });
    console.log(`${file}${problems.length ? `  (problems: ${problems.join('; ')})` : ''}`);
  } finally {
    await context.close();
  }
}

/** A mail's HTML part as a mail client shows it: no script, nothing fetched (images blocked). */
async function shootHtml(browser: Browser, html: string, file: string, options: BrowserContextOptions) {
  const context = await browser.newContext({ ...options, javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.route('**/*', (route) => route.abort());
    await page.setContent(html);
    await page.screenshot({ path: file, fullPage: true });
    console.log(file);
  } finally {
    await context.close();
  }
}

/**
 * The sign-in page after a passkey sign-in with a credential no account uses: Chrome's virtual
 * authenticator (DevTools protocol `WebAuthn`) holds a fresh P-256 key for the RP ID `localhost`.
 */
async function shootPasskeyRefused(browser: Browser, base: string, file: string, options: BrowserContextOptions) {
  const context = await browser.newContext(options);
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    await cdp.send('WebAuthn.addCredential', {
      authenticatorId,
      credential: {
        credentialId: randomBytes(16).toString('base64'),
        isResidentCredential: true,
        rpId: 'localhost',
        privateKey: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
        userHandle: randomBytes(16).toString('base64'),
        signCount: 1,
      },
    });
    await page.goto(`${base}/login`);
    await page.waitForSelector('html[data-ready="true"]');
    await page.click('#passkey-sign-in');
    await page.waitForSelector('#passkey-sign-in-status:not([hidden])');
    await page.screenshot({ path: file, fullPage: true });
    console.log(file);
  } finally {
    await context.close();
  }
}

const port = await freePort();
const base = `http://localhost:${port}`;
const fixture = await startOAuthFixture(base);
const host = await startHost({ port, env: fixture.env, args: ['--shutdown-grace-ms', '200'] });
// `npm start`'s defaults: no AUTH_PUBLIC_BASE_URL, so no mail.
const mailOff = await startHost({ args: ['--shutdown-grace-ms', '200'] });
const browser = await launchChromium(chromiumTool);
try {
  const post = (path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${host.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  for (const [path, amount] of [
    ['/api/increment_count', 40],
    ['/api/decrement_count', 3],
    ['/api/increment_count', 1],
    ['/api/reset_count', undefined],
    ['/api/increment_count', 25],
    ['/api/increment_count', 17],
  ] as const) {
    await post(path, amount === undefined ? undefined : { amount });
  }
  // One account (registration never signs in), signed in twice: "another device" first, then the
  // browser the screenshots show.
  const email = 'ada.lovelace@analytical-engine.example.org';
  await post('/api/auth/password/register', { email, password: PASSWORD });
  await post('/api/auth/password/login', { email, password: PASSWORD }, { 'user-agent': LAPTOP_UA });
  const signIn = await post('/api/auth/password/login', { email, password: PASSWORD }, { 'user-agent': String(PHONE.userAgent) });
  const setCookie = signIn.headers.getSetCookie()[0] ?? '';
  const [name = '', value = ''] = setCookie.split(';')[0]!.split('=');
  // Live links: a development host without SMTP_URL prints the mail it would send on its console;
  // `from` skips the lines printed before, so each link is the one just mailed.
  const printedLink = async (path: string, from = 0): Promise<string> => {
    for (let i = 0; i < 100; i++) {
      const line = host.output.slice(from).find((l) => l.includes(`${path}?token=`));
      const link = line && new RegExp(`${path.replace('/', '\\/')}\\?token=[A-Za-z0-9_.-]+`).exec(line)?.[0];
      if (link) return link;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no ${path} link on the host's console`);
  };
  // A passkey is added to a verified address only: the account confirms its address first.
  const verified = await post('/api/auth/email/verify', { token: new URL(await printedLink('/verify-email'), base).searchParams.get('token') });
  if (verified.status !== 200) throw new Error(`verifying the address answered ${verified.status}`);
  // A passkey on the account, added by this browser as the account page would (its password confirmed).
  const asBrowser = { origin: base, cookie: `${name}=${value}`, 'user-agent': String(PHONE.userAgent) };
  const options = await post('/api/auth/passkeys/registration/options', { password: PASSWORD }, asBrowser);
  if (options.status !== 200) throw new Error(`the passkey options answered ${options.status}: ${await options.text()}`);
  const creation = (await options.json()) as { challenge: string; rp: { id: string }; user: { id: string } };
  const added = await post('/api/auth/passkeys/registration/verify', { response: new SoftwarePasskey().register(creation, { origin: base }), name: 'Pixel 8' }, asBrowser);
  if (added.status !== 201) throw new Error(`adding the passkey answered ${added.status}`);
  const removalLink = await printedLink('/remove-passkeys');
  // The verification page is shown to a second account, whose link is still unused.
  const secondEmail = 'grace.hopper@harvard-mark.example.org';
  const beforeSecond = host.output.length;
  await post('/api/auth/password/register', { email: secondEmail, password: PASSWORD });
  const secondSignIn = await post('/api/auth/password/login', { email: secondEmail, password: PASSWORD });
  const secondValue = (secondSignIn.headers.getSetCookie()[0] ?? '').split(';')[0]!.split('=')[1] ?? '';
  const verifyLink = await printedLink('/verify-email', beforeSecond);
  const beforeReset = host.output.length;
  await post('/api/auth/password/forgot', { email });
  const resetLink = await printedLink('/reset-password', beforeReset);
  // A lockout as the sign-in page shows it after the post that caused it (110 s left when shot: "2 minutes").
  const lockedUrl = () => `${base}/login?error=rate_limited&form=login&retry_at=${Math.ceil(Date.now() / 1000) + 110}`;
  const mailPages = {
    verify: mailTexts.verify('Counter', `${base}/verify-email?token=…`),
    reset: mailTexts.reset('Counter', `${base}/reset-password?token=…`),
    'password-changed': mailTexts.passwordChanged('Counter', 'change', base),
    'account-exists': mailTexts.accountExists('Counter', base),
    'passkey-added': mailTexts.passkeyAdded('Counter', 'Pixel 8', '29 Nov 2026, 09:14 UTC', `${base}/remove-passkeys?token=…`, base),
  };

  for (const [layout, options] of LAYOUTS) {
    for (const scheme of SCHEMES) {
      const context = { ...options, colorScheme: scheme } as const;
      await shoot(browser, base, fileFor('', layout, scheme), context, '#status[data-status="live"]');
      await shoot(browser, `${base}/login`, fileFor('login-', layout, scheme), context, 'html[data-ready="true"]');
      await shoot(browser, `${base}/dashboard`, fileFor('account-', layout, scheme), context, 'html[data-ready="true"]', { name, value });
      await shoot(browser, `${base}/forgot-password`, fileFor('forgot-', layout, scheme), context, 'html[data-ready="true"]');
      await shoot(browser, `${base}${resetLink}`, fileFor('reset-', layout, scheme), context, '#reset-form');
      await shoot(browser, `${base}${verifyLink}`, fileFor('verify-', layout, scheme), context, '#account-nav[data-session="signed-in"]', { name, value: secondValue });
      await shoot(browser, `${base}${removalLink}`, fileFor('remove-passkeys-', layout, scheme), context, '#passkey-removal-form');
      await shootPasskeyRefused(browser, base, fileFor('passkey-refused-', layout, scheme), context);
      await shoot(browser, `${mailOff.url}/forgot-password`, fileFor('forgot-off-', layout, scheme), context, 'html[data-ready="true"]');
      await shoot(browser, lockedUrl(), fileFor('login-locked-', layout, scheme), context, '#login-form-error');
      await shoot(browser, `${base}/dashboard?error=invalid_credentials&form=password`, fileFor('account-refused-', layout, scheme), context, '#current-password-error', {
        name,
        value,
      });
      await shoot(browser, `${base}/no-such-page`, fileFor('not-found-', layout, scheme), context, '#account-nav[data-session="signed-out"]');
      await shoot(browser, `${base}/api/docs`, fileFor('api-docs-', layout, scheme), context, 'header .intro table', undefined, false);
      for (const [mailName, mail] of Object.entries(mailPages)) await shootHtml(browser, mail.html ?? '', fileFor(`mail-${mailName}-`, layout, scheme), context);
    }
  }
} finally {
  await browser.close();
  await Promise.all([host.stop(), mailOff.stop()]);
  await fixture.provider.stop();
}
