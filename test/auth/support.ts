/** Helpers of the auth end-to-end suites: JSON calls, cookies, error envelopes, unique emails. */
import { request } from 'node:http';
import { expect } from 'vitest';

export const PASSWORD = 'correct horse battery staple';
export const SESSION_COOKIE = 'wasi_auth_dev_session';

let counter = 0;
/** An email no other test (or run) uses. */
export function uniqueEmail(tag = 'user'): string {
  counter += 1;
  return `${tag}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

export function postJson(base: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), redirect: 'manual' });
}

export function postForm(base: string, path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}

/** The session id from a response's Set-Cookie (undefined when none or cleared). */
export function sessionIdFrom(response: Response): string | undefined {
  const header = response.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  const value = header?.slice(SESSION_COOKIE.length + 1).split(';')[0];
  return value ? value : undefined;
}

export function cookieHeader(sessionId: string): Record<string, string> {
  return { cookie: `${SESSION_COOKIE}=${sessionId}` };
}

export { expectError } from '../support/error-envelope.ts';

/** Registers (202, no session: registration never signs in) and then signs in with the password. */
export async function register(base: string, email = uniqueEmail(), password = PASSWORD): Promise<{ email: string; sessionId: string; userId: string; deviceCookie: string }> {
  const registered = await postJson(base, '/api/auth/password/register', { email, password });
  expect(registered.status).toBe(202);
  const response = await postJson(base, '/api/auth/password/login', { email, password });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { user_id: string };
  return { email, sessionId: sessionIdFrom(response)!, userId: body.user_id, deviceCookie: deviceCookieFrom(response.headers.getSetCookie())! };
}

export async function sessionOf(base: string, sessionId?: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${base}/api/auth/session`, { headers: sessionId ? cookieHeader(sessionId) : {} });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

/** `name=value` of the device cookie among Set-Cookie values (what the browser sends back to the login). */
export function deviceCookieFrom(setCookies: string[]): string | undefined {
  return setCookies.find((c) => /^(__Secure-)?wasi_auth_device=/.test(c))?.split(';')[0];
}

export interface AnswerFrom {
  status: number;
  code: string | undefined;
  retryAfter: string | undefined;
  setCookies: string[];
}

/** POST JSON from a chosen local address, e.g. 127.0.0.2 (fetch cannot pick one; the host sees the socket's peer). */
export function postFrom(localAddress: string, url: string, body: unknown, headers: Record<string, string> = {}): Promise<AnswerFrom> {
  return sendFrom(localAddress, 'POST', url, body, headers);
}

/** A JSON request with any method from a chosen local address (see postFrom). */
export function sendFrom(localAddress: string, method: string, url: string, body: unknown, headers: Record<string, string> = {}): Promise<AnswerFrom> {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const req = request(url, { method, localAddress, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data), ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const code = res.statusCode! >= 400 ? (JSON.parse(text) as { error: { code: string } }).error.code : undefined;
        resolve({ status: res.statusCode!, code, retryAfter: res.headers['retry-after'], setCookies: res.headers['set-cookie'] ?? [] });
      });
    });
    req.on('error', reject);
    req.end(data);
  });
}
