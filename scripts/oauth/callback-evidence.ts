/**
 * `npm run oauth:callback-evidence`: what a completed provider login left
 * behind. With SESSION_COOKIE (from the browser that finished the login): /api/auth/session is
 * authenticated by a sign-in of a provider in OAUTH_PROVIDERS (and matches EXPECTED_EMAIL when
 * given), /dashboard answers 200 with the cookie, and storage status (AUTH_SYSTEM_ACCESS_TOKEN)
 * shows OAuth state creation, state consumption, identity linking, session issuance and the auth
 * projection caught up. Records the outcome for tracker A11. Exit 0 / 1 / 2 (bad parameters).
 *
 *   BASE_URL=https://auth.example.com OAUTH_PROVIDERS=provider_a SESSION_COOKIE=… \
 *     AUTH_SYSTEM_ACCESS_TOKEN=… EXPECTED_EMAIL=me@example.com npm run oauth:callback-evidence
 */
import { recordForA11 } from './live/a11-results.ts';
import { checkDashboard, checkSession } from './live/session-evidence.ts';
import { checkEvents, checkProjectionProgress, FLOW_EVENTS, readStorageStatus, storageStatusChecked } from './live/storage-evidence.ts';
import { runTool } from './live/tool.ts';

await runTool('callback-evidence', { session: true, token: true }, async ({ env, params, out }) => {
  const { baseUrl, providers, session, expectedEmail } = params;
  const token = params.accessToken!;
  out.line(`OAuth callback evidence for ${providers.join(', ')} against ${baseUrl} (the session cookie is never printed)`);
  const scope = providers.length === 1 ? providers[0]! : 'shared';

  const provider = await checkSession(out, scope, baseUrl, session!.header, { providers, expectedEmail });
  await checkDashboard(out, scope, baseUrl, session!.header);
  const status = await storageStatusChecked(out, scope, baseUrl, token, 'after the login');
  if (status) {
    checkEvents(out, scope, FLOW_EVENTS, status);
    await checkProjectionProgress(out, scope, status, async () => {
      const again = await readStorageStatus(baseUrl, token);
      return 'status' in again ? again.status : undefined;
    });
  }
  // The session names the provider this evidence is about; without one it fails for all selected.
  const about = provider ? [provider] : providers;
  recordForA11(
    out,
    env,
    'callback',
    'oauth:callback-evidence',
    baseUrl,
    about.map((p) => ({ provider: p, passed: provider !== undefined && out.failures === 0 })),
  );
});
