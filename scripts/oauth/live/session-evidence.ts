/**
 * What a session cookie proves (tools 3 and 4): `/api/auth/session` reports an authenticated
 * OAuth session of a selected provider (and EXPECTED_EMAIL when given), and `/dashboard` answers
 * with the cookie instead of sending the browser to /login. The session's email is compared,
 * never printed unless it is the expected one; the user id is never printed.
 */
import * as v from 'valibot';
import type { ProviderId } from '../../../src/auth/oauth/provider-ids.ts';
import type { Scope, ToolOutput } from './output.ts';
import { jsonBody, request } from './http.ts';

const sessionSchema = v.object({
  authenticated: v.boolean(),
  email: v.optional(v.nullable(v.string())),
  aal: v.optional(v.string()),
  method: v.optional(v.string()),
});

const printable = (s: string | undefined) => (s !== undefined && /^[a-z0-9_:]{1,40}$/.test(s) ? s : 'unknown');

/** Checks the session; returns the provider it was issued by (when one of `providers`). */
export async function checkSession(
  out: ToolOutput,
  scope: Scope,
  baseUrl: string,
  cookie: string,
  options: { providers: readonly ProviderId[]; expectedEmail: string | undefined },
): Promise<ProviderId | undefined> {
  const result = await request(`${baseUrl}/api/auth/session`, { headers: { cookie, accept: 'application/json' } });
  if ('problem' in result) return void out.fail(scope, `/api/auth/session: ${result.problem}`);
  const parsed = v.safeParse(sessionSchema, await jsonBody(result.response));
  if (result.response.status !== 200 || !parsed.success) return void out.fail(scope, `/api/auth/session answered HTTP ${result.response.status} without a session report`);
  const session = parsed.output;
  if (
    !out.check(
      scope,
      session.authenticated,
      session.authenticated
        ? `/api/auth/session reports an authenticated session (${printable(session.aal)}, ${printable(session.method)})`
        : '/api/auth/session reports no authenticated session for this cookie (expired, revoked, or not a session of this deployment)',
    )
  )
    return undefined;

  const provider = options.providers.find((p) => session.method === `oauth:${p}`);
  out.check(
    scope,
    provider !== undefined,
    provider
      ? `the session was issued by the ${provider} sign-in`
      : `the session was not issued by a sign-in of ${options.providers.join(', ')} (method ${printable(session.method)})`,
  );

  if (options.expectedEmail === undefined) out.skip(scope, 'EXPECTED_EMAIL is not set: the session email is not compared (and not printed)');
  else {
    const same = session.email?.toLowerCase() === options.expectedEmail.trim().toLowerCase();
    out.check(
      scope,
      same,
      same ? `the session email equals EXPECTED_EMAIL (${options.expectedEmail})` : `the session email ${session.email ? 'differs from' : 'is empty, not'} EXPECTED_EMAIL`,
    );
  }
  return provider;
}

export async function checkDashboard(out: ToolOutput, scope: Scope, baseUrl: string, cookie: string): Promise<void> {
  const result = await request(`${baseUrl}/dashboard`, { headers: { cookie, accept: 'text/html' } });
  if ('problem' in result) return void out.fail(scope, `/dashboard: ${result.problem}`);
  const { status, headers } = result.response;
  await result.response.body?.cancel();
  if (status === 200) return out.pass(scope, '/dashboard answers 200 with the session cookie');
  const location = headers.get('location');
  const path = location ? new URL(location, baseUrl).pathname : undefined;
  out.fail(
    scope,
    path ? `/dashboard redirected to ${path} with the session cookie (HTTP ${status}): the session is not accepted` : `/dashboard answered HTTP ${status} with the session cookie`,
  );
}
