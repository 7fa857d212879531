/**
 * Builds the OpenAPI 3.2 document (https://spec.openapis.org/oas/v3.2.0) from the operation table
 * (operations.ts), the wire schemas (schemas.ts, mostly the very schemas the routes validate with)
 * and the one AppError → status table (src/http/errors.ts). Pure and deterministic: the
 * same sources give byte-identical JSON, which is what `npm run gen:openapi -- --check` compares.
 */
import * as v from 'valibot';
import { AppError, APP_ERROR_CODES, type AppErrorCode } from '../errors.ts';
import { statusForCode, errorEnvelope } from '../http/errors.ts';
import { AMOUNT_MESSAGES } from '../counter/domain/int32.ts';
import { dataFrame, KEEPALIVE_MS } from '../counter/stream.ts';
import { UNSIGNED } from '../counter/stream-position.ts';
import type { CounterView } from '../counter/application/view.ts';
import { SESSION_COOKIE, sessionCookieName } from '../auth/application/session-cookie.ts';
import { bindingCookieName } from '../auth/oauth/flow/browser-binding.ts';
import { SchemaSet } from './json-schema.ts';
import * as S from './schemas.ts';
import { OPERATIONS, type HeaderName, type OperationSpec, type SuccessSpec } from './operations.ts';

/** The contract's own version: bump the minor for additions, the major for breaking changes. */
const API_VERSION = '1.0.0';

const optionalEntries = (entries: v.ObjectEntries) => Object.fromEntries(Object.entries(entries).map(([k, s]) => [k, v.optional(s as v.GenericSchema)]));

const schemas = new SchemaSet({
  CounterView: S.CounterViewSchema,
  EventLog: S.EventLogSchema,
  AmountBody: S.AmountBodySchema,
  Credentials: S.CredentialsSchema,
  NewCredentials: S.NewCredentialsSchema,
  AccountDeletion: S.AccountDeletionSchema,
  ErrorEnvelope: S.ErrorEnvelopeSchema,
  SessionView: S.SessionViewSchema,
  SignedIn: S.SignedInSchema,
  RegistrationAccepted: S.RegistrationAcceptedSchema,
  SignedOut: S.SignedOutSchema,
  Capabilities: S.CapabilitiesSchema,
  StorageStatus: S.StorageStatusSchema,
  SessionList: S.SessionListSchema,
  SessionsRevoked: S.SessionsRevokedSchema,
  Passkey: S.PasskeySchema,
  PasskeyList: S.PasskeyListSchema,
  PasskeyCreationOptions: S.PasskeyCreationOptionsSchema,
  PasskeyRequestOptions: S.PasskeyRequestOptionsSchema,
  PasskeySignedIn: S.PasskeySignedInSchema,
  PasskeyRegistrationBody: S.PasskeyRegistrationBodySchema,
  PasskeyAuthenticationBody: S.PasskeyAuthenticationBodySchema,
  PasskeyRenameBody: S.PasskeyRenameBodySchema,
  ForgotPasswordBody: S.ForgotPasswordBodySchema,
  ResetPasswordBody: S.ResetPasswordBodySchema,
  ChangePasswordBody: S.ChangePasswordBodySchema,
  VerifyEmailBody: S.VerifyEmailBodySchema,
  ResetRequested: S.ResetRequestedSchema,
  PasswordReset: S.PasswordResetSchema,
  PasswordChanged: S.PasswordChangedSchema,
  EmailVerified: S.EmailVerifiedSchema,
  VerificationResent: S.VerificationResentSchema,
  Health: S.HealthSchema,
  CounterFrame: S.CounterFrameSchema,
  StreamError: S.StreamErrorSchema,
  OAuthCallbackForm: v.object({ ...optionalEntries(S.OAuthCallbackCodeSchema.entries), ...optionalEntries(S.OAuthCallbackErrorSchema.entries) }),
  OpenApiDocument: v.looseObject({ openapi: v.string(), info: v.looseObject({ title: v.string(), version: v.string() }), paths: v.record(v.string(), v.looseObject({})) }),
});

const SAMPLE_VIEW: CounterView = {
  count: 3,
  latest_events: [
    { sequence: 2, event_type: 'incremented', revision: 2, payload: '{"amount":2,"value":3}', recorded_at: '2026-11-24T12:00:01.000Z' },
    { sequence: 1, event_type: 'incremented', revision: 1, payload: '{"amount":1,"value":1}', recorded_at: '2026-11-24T12:00:00.000Z' },
  ],
  last_sequence: 2,
  realtime_enabled: true,
};

/** Request examples (Schemathesis' examples phase sends them first). */
const REQUEST_EXAMPLES: Record<string, unknown> = {
  AmountBody: { amount: 1 },
  // Register then login with the same pair: both succeed on both hosts (non-ASCII passwords too since NFKC runs in the guest).
  Credentials: { email: 'ada@example.com', password: 'correct horse battery staple' },
  NewCredentials: { email: 'ada@example.com', password: 'correct horse battery staple' },
};
const exampleOf = (schema: string) => (schema in REQUEST_EXAMPLES ? { example: REQUEST_EXAMPLES[schema] } : {});

/** A typical public message per code, for the examples (the generic ones are the real texts). */
const EXAMPLE_MESSAGES: Partial<Record<AppErrorCode, string>> = {
  validation: AMOUNT_MESSAGES.notPositive,
  domain: 'the count would leave the signed 32-bit range',
  concurrency: 'the counter was changed concurrently, try again',
  conflict: 'this email is already registered',
  not_found: 'no route matches this path',
  method_not_allowed: 'method PUT is not allowed here',
  payload_too_large: 'request body exceeds 256 KiB',
  unsupported_media_type: 'content type must be application/json',
};

/** A cookie by its name in either cookie mode: plain on http, `__Host-` prefixed when Secure (RFC 6265bis §4.1.3.2). */
const cookieNames = (name: (secure: boolean) => string) => `\`${name(false)}\` (\`${name(true)}\` with Secure on an https public base)`;
const cookiePattern = (name: (secure: boolean) => string, rest: string) => `^(${name(false)}|${name(true)})=${rest}`;

type Mandatory<H> = H extends `${infer N}?` ? N : H;
type BaseHeader = Mandatory<HeaderName>;
const HEADERS: Record<BaseHeader | 'Retry-After' | 'WWW-Authenticate' | 'Allow', { description: string; schema: object }> = {
  Location: { description: 'where to go next (a path or an absolute URL)', schema: { type: 'string', minLength: 1 } },
  'Set-Cookie': {
    description: `the session cookie ${cookieNames(sessionCookieName)} (HttpOnly, SameSite=Lax, Path=/)`,
    schema: { type: 'string', pattern: cookiePattern(sessionCookieName, '') },
  },
  'Set-Cookie-Cleared': { description: `${cookieNames(sessionCookieName)} cleared (Max-Age=0)`, schema: { type: 'string', pattern: cookiePattern(sessionCookieName, ';') } },
  'Set-Cookie-Binding': {
    description: `the OAuth browser-binding cookie ${cookieNames(bindingCookieName)} (HttpOnly, Path=/, as long as the state lives): the callback answers 403 \`oauth_browser_mismatch\` in a browser without it`,
    schema: { type: 'string', pattern: cookiePattern(bindingCookieName, '') },
  },
  ETag: { description: 'entity tag of this representation (RFC 9110 §8.8.3), for If-None-Match', schema: { type: 'string', pattern: '^(W/)?"' } },
  'Retry-After': { description: 'seconds to wait (RFC 9110 §10.2.3)', schema: { type: 'string', pattern: '^[1-9][0-9]*$' } },
  'WWW-Authenticate': { description: 'the bearer scheme (RFC 6750 §3)', schema: { type: 'string', pattern: '^Bearer' } },
  Allow: { description: "the path's methods (RFC 9110 §10.2.1)", schema: { type: 'string', minLength: 1 } },
};

const header = (name: keyof typeof HEADERS, required: boolean) => ({ ...HEADERS[name], required });

/** `Set-Cookie?` style names: a trailing `?` makes the header optional. */
function headersOf(names: readonly string[]): Record<string, object> | undefined {
  if (names.length === 0) return undefined;
  return Object.fromEntries(
    names.map((raw) => {
      const optional = raw.endsWith('?');
      const name = (optional ? raw.slice(0, -1) : raw) as BaseHeader;
      return [name.startsWith('Set-Cookie') ? 'Set-Cookie' : name, header(name, !optional)];
    }),
  );
}

/** One event of the counter stream: `counter` carries a CounterFrame, `error` a StreamError. */
function sseItemSchema(): object {
  const event = (name: string, data: string) => ({
    type: 'object',
    required: ['event', 'data'],
    properties: {
      event: { const: name },
      id: { type: 'string', pattern: UNSIGNED.source, description: 'the last_sequence of the newest counter frame' },
      retry: { type: 'integer', minimum: 0, description: 'reconnection delay in ms (sent once, first)' },
      data: { type: 'string', contentMediaType: 'application/json', contentSchema: schemas.ref(data) },
    },
  });
  return { oneOf: [event('counter', 'CounterFrame'), event('error', 'StreamError')] };
}

function successResponse(spec: SuccessSpec): object {
  switch (spec.kind) {
    case 'json':
      return {
        description: spec.description,
        headers: headersOf(spec.headers ?? []),
        content: { 'application/json': { schema: schemas.ref(spec.schema), ...(spec.schema === 'CounterView' ? { example: SAMPLE_VIEW } : {}) } },
      };
    case 'sse':
      return {
        description: [
          `${spec.description} (text/event-stream, https://html.spec.whatwg.org/multipage/server-sent-events.html).`,
          'First `retry: 1000`; then one catch-up frame if anything is newer than the start position.',
          'A data frame is `id: <last_sequence>`, `event: counter`, `data: {"view": CounterView, "last_sequence": n}` and stands for the whole new state (several events coalesce).',
          `\`: keepalive\` after ${KEEPALIVE_MS / 1000} s of silence; a storage failure sends \`event: error\` with \`{"message": …}\` and keeps the stream open.`,
        ].join(' '),
        // OpenAPI 3.2 (§4.14.3, sequential media types): `itemSchema` describes each event as the
        // SSE parser yields it (`event`, `id`, `retry`, `data`), `data` being JSON of its own schema.
        content: { 'text/event-stream': { itemSchema: sseItemSchema(), example: `retry: 1000\n\n${dataFrame(SAMPLE_VIEW)}: keepalive\n\n` } },
      };
    case 'html':
      return { description: spec.description, content: { 'text/html': { schema: { type: 'string' } } } };
    case 'redirect':
      return { description: spec.description, headers: headersOf(spec.headers) };
    case 'empty':
      return { description: spec.description, headers: headersOf(spec.headers ?? []) };
  }
}

/** One response per status the operation's codes map to; the schema narrows `code` to those codes. */
function errorResponses(op: OperationSpec): Record<string, object> {
  const byStatus = new Map<number, AppErrorCode[]>();
  for (const code of op.errors) byStatus.set(statusForCode(code), [...(byStatus.get(statusForCode(code)) ?? []), code]);
  const out: Record<string, object> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const schema = { allOf: [schemas.ref('ErrorEnvelope'), { properties: { error: { properties: { code: { enum: codes } } } } }] };
    const examples = Object.fromEntries(codes.map((code) => [code, { value: errorEnvelope(new AppError(code, EXAMPLE_MESSAGES[code])) }]));
    const headers: Record<string, object> = {};
    if (status === 429) headers['Retry-After'] = header('Retry-After', true);
    if (status === 401 && op.security === 'operator') headers['WWW-Authenticate'] = header('WWW-Authenticate', true);
    out[String(status)] = {
      description: `the error envelope with code ${codes.map((c) => `\`${c}\``).join(' or ')}`,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      content: {
        'application/json': { schema, examples },
        ...(op.htmlErrors && (op.htmlErrors.statuses?.includes(status) ?? true) ? { 'text/html': { schema: { type: 'string', description: op.htmlErrors.description } } } : {}),
      },
    };
  }
  return out;
}

function operation(op: OperationSpec): object {
  const responses: Record<string, object> = {};
  for (const [status, spec] of Object.entries(op.success)) responses[status] = successResponse(spec);
  Object.assign(responses, errorResponses(op));
  // Found by Schemathesis: a long query string exceeds the Node host's request-head limit (16 KiB,
  // Node's --max-http-header-size), answered by the host's HTTP parser before the component sees it.
  if (op.parameters?.some((p) => p.in === 'query' && p.schema.type === 'string'))
    responses['431'] = { description: "the request head exceeds the host's limit (the Node host: 16 KiB)" };
  if (op.links) for (const [status, links] of Object.entries({ [Object.keys(op.success)[0]!]: op.links })) (responses[status] as Record<string, unknown>)['links'] = links;
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    ...(op.parameters
      ? { parameters: op.parameters.map((p) => ({ name: p.name, in: p.in, required: p.required ?? false, description: p.description, schema: schemas.inline(p.schema) })) }
      : {}),
    ...(op.body
      ? {
          requestBody: {
            required: op.body.required,
            content: Object.fromEntries(op.body.mediaTypes.map((type) => [type, { schema: schemas.ref(op.body!.schema), ...exampleOf(op.body!.schema) }])),
          },
        }
      : {}),
    ...(op.security === 'operator' ? { security: [{ operatorToken: [] }] } : op.security === 'session' ? { security: [{ sessionCookie: [] }, {}] } : {}),
    responses,
  };
}

function errorTable(): string {
  const rows = APP_ERROR_CODES.map((code) => [statusForCode(code), code] as const).sort(([a], [b]) => a - b);
  return ['| status | code |', '|---|---|', ...rows.map(([status, code]) => `| ${status} | \`${code}\` |`)].join('\n');
}

/** The whole document as a plain JSON value. */
export function buildOpenApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, object>> = {};
  for (const op of OPERATIONS) (paths[op.path] ??= {})[op.method] = operation(op);
  return {
    openapi: '3.2.0',
    info: {
      title: 'wasi-counter-auth',
      version: API_VERSION,
      description: [
        'An event-sourced counter and an auth service, served by one WebAssembly component on every host (Node host, `wasmtime serve`).',
        'Every failure answers with the error envelope `{"error":{"code","message"}}` (OAuth routes add `reason`); the status follows from the code:',
        '',
        errorTable(),
        '',
        'A known path called with a method it does not take answers 405 `method_not_allowed` with an `Allow` header; an unknown path answers 404 `not_found`.',
        'The Node host answers any route itself, before the service sees it, with 429 `too_many_exchanges` when the client already has its limit of requests and streams in flight, and 503 `overloaded` when no instance of the service is free in time; both with `Retry-After`.',
        'Generated from the valibot schemas the routes validate with (src/openapi/); regenerate with `npm run gen:openapi`.',
      ].join('\n'),
    },
    tags: [
      { name: 'counter', description: 'The counter REST API and its event stream' },
      { name: 'server functions', description: "The browser UI's RPC routes (same commands, same errors)" },
      { name: 'auth', description: 'Password accounts, sessions, operator storage status' },
      { name: 'oauth', description: 'OAuth 2.0 / OpenID Connect sign-in (RFC 6749, OIDC Core)' },
      { name: 'service', description: 'Health and this contract' },
    ],
    paths,
    components: {
      schemas: schemas.components(),
      securitySchemes: {
        operatorToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'HS256 operator token from `npm run auth:token` (aal2, role system_admin)' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: `the session cookie set by sign-in: ${cookieNames(sessionCookieName)}` },
      },
      responses: {
        MethodNotAllowed: {
          description: 'a known path with a method it does not take',
          headers: { Allow: header('Allow', true) },
          content: {
            'application/json': { schema: schemas.ref('ErrorEnvelope'), example: errorEnvelope(new AppError('method_not_allowed', EXAMPLE_MESSAGES.method_not_allowed)) },
          },
        },
      },
    },
  };
}

/** The document as served and committed: two-space JSON with a final newline. */
export function openApiJson(document: Record<string, unknown> = buildOpenApiDocument()): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
