/**
 * A local OAuth 2.0 / OIDC provider for the test suite: a real HTTP server that plays provider_a
 * (OIDC, RS256), provider_b (OAuth + user-info) and provider_c (OIDC, ES256, form_post, client
 * secret as a signed JWT), under /provider_a, /provider_b, /provider_c. Its authorize endpoint
 * approves the configured test user at once. Knobs make the next ID token misbehave.
 *
 *   const provider = await startOAuthProvider({ clients });
 *   env = { ...provider.endpointEnv(), ... }   // AUTH_PROVIDER_*_{AUTHORIZATION,TOKEN,JWKS,USERINFO}_URL, _ISSUER
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { clientAuthenticates, type ClientCheck } from './client-secret-check.ts';
import { issueIdToken, type Misbehaviour } from './id-token.ts';
import { providerKey } from './keys.ts';

export type TestProviderId = 'provider_a' | 'provider_b' | 'provider_c';

export interface RegisteredClient {
  clientId: string;
  redirectUri: string;
  check: ClientCheck;
}

export interface TestUser {
  subject: string;
  email: string;
  emailVerified: boolean;
  name: string;
}

interface IssuedCode {
  provider: TestProviderId;
  clientId: string;
  redirectUri: string;
  nonce: string;
  codeChallenge: string | undefined;
  used: boolean;
}

export interface TokenRequestRecord {
  provider: TestProviderId;
  status: number;
  error?: string;
}

export interface OAuthTestProvider {
  readonly url: string;
  issuer(id: TestProviderId): string;
  /** Endpoint override variables pointing the service at this provider. */
  endpointEnv(): Record<string, string>;
  /** The next ID token (of any provider) misbehaves this way. */
  misbehaveOnce(knob: Misbehaviour): void;
  user: TestUser;
  readonly tokenRequests: TokenRequestRecord[];
  stop(): Promise<void>;
}

const ENV_PREFIX: Record<TestProviderId, string> = { provider_a: 'AUTH_PROVIDER_A', provider_b: 'AUTH_PROVIDER_B', provider_c: 'AUTH_PROVIDER_C' };

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startOAuthProvider(options: { clients: Partial<Record<TestProviderId, RegisteredClient>>; user?: Partial<TestUser> }): Promise<OAuthTestProvider> {
  const keys = { provider_a: await providerKey('RS256', 'a-key-1'), provider_c: await providerKey('ES256', 'c-key-1') };
  const strays = { provider_a: await providerKey('RS256', 'a-stray'), provider_c: await providerKey('ES256', 'c-stray') };
  const codes = new Map<string, IssuedCode>();
  const accessTokens = new Map<string, TestProviderId>();
  const tokenRequests: TokenRequestRecord[] = [];
  let knob: Misbehaviour | undefined;
  let url = '';
  const user: TestUser = { subject: 'test-user-1', email: 'person@example.test', emailVerified: true, name: 'Test Person', ...options.user };
  const issuer = (id: TestProviderId) => `${url}/${id}`;

  function authorize(id: TestProviderId, params: URLSearchParams, res: ServerResponse): void {
    const client = options.clients[id];
    if (!client || params.get('client_id') !== client.clientId || params.get('redirect_uri') !== client.redirectUri) {
      // A real provider shows an error page and never redirects to an unregistered URI.
      return json(res, 400, { error: 'invalid_request', error_description: 'unknown client or redirect_uri mismatch' });
    }
    if (params.get('response_type') !== 'code' || !params.get('state') || !params.get('scope')) return json(res, 400, { error: 'invalid_request' });
    const challenge = params.get('code_challenge') ?? undefined;
    if (challenge && params.get('code_challenge_method') !== 'S256') return json(res, 400, { error: 'invalid_request' });
    const code = randomBytes(24).toString('base64url');
    codes.set(code, { provider: id, clientId: client.clientId, redirectUri: client.redirectUri, nonce: params.get('nonce') ?? '', codeChallenge: challenge, used: false });
    const state = params.get('state')!;
    if (params.get('response_mode') === 'form_post') {
      const fields: Record<string, string> = { code, state, user: JSON.stringify({ name: { firstName: 'Test', lastName: 'Person' }, email: user.email }) };
      const inputs = Object.entries(fields)
        .map(([k, v]) => `<input type="hidden" name="${k}" value="${escapeHtml(v)}">`)
        .join('');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html><body onload="document.forms[0].submit()"><form method="post" action="${escapeHtml(client.redirectUri)}">${inputs}<noscript><button>Continue</button></noscript></form></body></html>`,
      );
      return;
    }
    const target = new URL(client.redirectUri);
    target.searchParams.set('code', code);
    target.searchParams.set('state', state);
    res.writeHead(302, { location: target.href }).end();
  }

  async function token(id: TestProviderId, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = await readForm(req);
    const fail = (status: number, error: string) => {
      tokenRequests.push({ provider: id, status, error });
      json(res, status, { error });
    };
    const client = options.clients[id];
    if (!client || form.get('client_id') !== client.clientId) return fail(401, 'invalid_client');
    if (!(await clientAuthenticates(client.check, client.clientId, form.get('client_secret'), issuer(id)))) return fail(401, 'invalid_client');
    const issued = codes.get(form.get('code') ?? '');
    if (form.get('grant_type') !== 'authorization_code' || !issued || issued.used || issued.provider !== id) return fail(400, 'invalid_grant');
    issued.used = true;
    if (form.get('redirect_uri') !== issued.redirectUri) return fail(400, 'invalid_grant');
    if (issued.codeChallenge) {
      const verifier = form.get('code_verifier') ?? '';
      if (createHash('sha256').update(verifier).digest('base64url') !== issued.codeChallenge) return fail(400, 'invalid_grant');
    }
    const accessToken = randomBytes(24).toString('base64url');
    accessTokens.set(accessToken, id);
    const body: Record<string, unknown> = { access_token: accessToken, token_type: 'Bearer', expires_in: 3600 };
    if (id !== 'provider_b') {
      const misbehaviour = knob;
      knob = undefined;
      body.id_token = await issueIdToken({
        issuer: issuer(id),
        audience: issued.clientId,
        subject: user.subject,
        nonce: issued.nonce,
        email: user.email,
        emailVerified: id === 'provider_c' ? (user.emailVerified ? 'true' : (false as const)) : user.emailVerified,
        ...(id === 'provider_a' ? { name: user.name } : {}),
        key: keys[id],
        strayKey: strays[id],
        ...(misbehaviour ? { misbehaviour } : {}),
      });
    }
    tokenRequests.push({ provider: id, status: 200 });
    json(res, 200, body);
  }

  function userInfo(req: IncomingMessage, res: ServerResponse): void {
    const auth = req.headers.authorization ?? '';
    const tokenValue = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    if (accessTokens.get(tokenValue) !== 'provider_b') return json(res, 401, { error: { message: 'invalid token' } });
    json(res, 200, { id: user.subject, name: user.name, email: user.email, email_verified: user.emailVerified });
  }

  const server: Server = createServer((req, res) => {
    const reqUrl = new URL(req.url ?? '/', url);
    const [, id, endpoint] = reqUrl.pathname.split('/') as [string, TestProviderId, string];
    if (!(id in ENV_PREFIX)) return json(res, 404, { error: 'not_found' });
    const route = `${req.method} ${endpoint}`;
    if (route === 'GET authorize') return authorize(id, reqUrl.searchParams, res);
    if (route === 'POST token') return void token(id, req, res).catch((e: unknown) => json(res, 500, { error: String(e) }));
    if (route === 'GET jwks' && id !== 'provider_b') return json(res, 200, { keys: [keys[id].publicJwk] });
    if (route === 'GET me' && id === 'provider_b') return userInfo(req, res);
    return json(res, 404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    issuer,
    user,
    tokenRequests,
    endpointEnv() {
      const env: Record<string, string> = {};
      for (const id of ['provider_a', 'provider_b', 'provider_c'] as const) {
        const p = ENV_PREFIX[id];
        env[`${p}_AUTHORIZATION_URL`] = `${url}/${id}/authorize`;
        env[`${p}_TOKEN_URL`] = `${url}/${id}/token`;
        if (id === 'provider_b') env[`${p}_USERINFO_URL`] = `${url}/${id}/me`;
        else {
          env[`${p}_JWKS_URL`] = `${url}/${id}/jwks`;
          env[`${p}_ISSUER`] = issuer(id);
        }
      }
      return env;
    },
    misbehaveOnce(next) {
      knob = next;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type { Misbehaviour } from './id-token.ts';
export type { ProviderKey } from './keys.ts';
