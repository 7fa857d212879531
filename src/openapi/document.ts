/**
 * Builds the OpenAPI 3.2 document (https://spec.openapis.org/oas/v3.2.0) from the features'
 * contracts (contracts.ts: each feature's operations and schemas, declared beside its routes), the
 * error envelope (schemas.ts) and the one AppError → status table (src/http/errors.ts). Pure and
 * deterministic: the same sources give byte-identical JSON, which is what
 * `npm run gen:openapi -- --check` compares.
 */
import type * as v from 'valibot';
import { AppError, APP_ERROR_CODES, type AppErrorCode } from '../errors.ts';
import { statusForCode, errorEnvelope } from '../http/errors.ts';
import type { ApiContract, HeaderName, OperationSpec, SuccessSpec } from '../http/operation.ts';
import { AMOUNT_MESSAGES } from '../counter/domain/int32.ts';
import { SESSION_COOKIE, sessionCookieName } from '../auth/application/session-cookie.ts';
import { bindingCookieName } from '../auth/oauth/flow/browser-binding.ts';
import { SchemaSet } from './json-schema.ts';
import { ErrorEnvelopeSchema } from './schemas.ts';
import { API_CONTRACTS } from './contracts.ts';

/** The contract's own version: bump the minor for additions, the major for breaking changes. */
const API_VERSION = '1.0.0';

/** Every contract's schemas and the envelope as one set; a name given twice must name the same schema. */
function schemasOf(contracts: readonly ApiContract[]): SchemaSet {
  const named: Record<string, v.GenericSchema> = { ErrorEnvelope: ErrorEnvelopeSchema };
  for (const contract of contracts) {
    for (const [name, schema] of Object.entries(contract.schemas ?? {})) {
      if (named[name] !== undefined && named[name] !== schema) throw new Error(`two contracts name different schemas ${name}`);
      named[name] = schema;
    }
  }
  return new SchemaSet(named);
}

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

/** One event of a stream as the SSE parser yields it (`event`, `id`, `retry`, `data`), `data` being JSON of its event's schema. */
function sseItemSchema(schemas: SchemaSet, spec: Extract<SuccessSpec, { kind: 'sse' }>): object {
  const event = (name: string, data: string) => ({
    type: 'object',
    required: ['event', 'data'],
    properties: {
      event: { const: name },
      ...(spec.id ? { id: { type: 'string', pattern: spec.id.pattern, description: spec.id.description } } : {}),
      retry: { type: 'integer', minimum: 0, description: 'reconnection delay in ms (sent once, first)' },
      data: { type: 'string', contentMediaType: 'application/json', contentSchema: schemas.ref(data) },
    },
  });
  return { oneOf: Object.entries(spec.events).map(([name, data]) => event(name, data)) };
}

function successResponse(schemas: SchemaSet, spec: SuccessSpec): object {
  switch (spec.kind) {
    case 'json':
      return {
        description: spec.description,
        headers: headersOf(spec.headers ?? []),
        content: { 'application/json': { schema: schemas.ref(spec.schema), ...(spec.example === undefined ? {} : { example: spec.example }) } },
      };
    case 'sse':
      return {
        description: spec.description,
        // OpenAPI 3.2 (§4.14.3, sequential media types): `itemSchema` describes each event.
        content: { 'text/event-stream': { itemSchema: sseItemSchema(schemas, spec), example: spec.example } },
      };
    case 'html':
      return { description: spec.description, content: { 'text/html': { schema: { type: 'string' } } } };
    case 'redirect':
      return { description: spec.description, headers: headersOf(spec.headers) };
    case 'empty':
      return { description: spec.description, headers: headersOf(spec.headers ?? []) };
  }
}

/** What a request whose `Accept` prefers text/html gets for an error (src/web/error-page.tsx). */
const BROWSER_ERROR_PAGE = 'a browser (Accept names text/html before application/json): the same error as a page in the product’s design, same status and headers';

/** One response per status the operation's codes map to; the schema narrows `code` to those codes. */
function errorResponses(schemas: SchemaSet, op: OperationSpec): Record<string, object> {
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
        'text/html': {
          schema: { type: 'string', description: op.htmlErrors && (op.htmlErrors.statuses?.includes(status) ?? true) ? op.htmlErrors.description : BROWSER_ERROR_PAGE },
        },
      },
    };
  }
  return out;
}

function operation(schemas: SchemaSet, requestExamples: Readonly<Record<string, unknown>>, op: OperationSpec): object {
  const responses: Record<string, object> = {};
  for (const [status, spec] of Object.entries(op.success)) responses[status] = successResponse(schemas, spec);
  Object.assign(responses, errorResponses(schemas, op));
  const exampleOf = (schema: string) => (schema in requestExamples ? { example: requestExamples[schema] } : {});
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
export function buildOpenApiDocument(contracts: readonly ApiContract[] = API_CONTRACTS): Record<string, unknown> {
  const schemas = schemasOf(contracts);
  const requestExamples = Object.assign({}, ...contracts.map((contract) => contract.requestExamples ?? {})) as Record<string, unknown>;
  const paths: Record<string, Record<string, object>> = {};
  for (const op of contracts.flatMap((contract) => contract.operations)) (paths[op.path] ??= {})[op.method] = operation(schemas, requestExamples, op);
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
        'A request whose `Accept` names `text/html` before `application/json` (a browser) gets every error as an HTML page in the product’s design instead, with the same status and headers; API clients (`application/json`, `*/*` or no `Accept`) get the envelope.',
        'The Node host answers any route itself, before the service sees it, with 429 `too_many_exchanges` when the client already has its limit of requests and streams in flight, and 503 `overloaded` when no instance of the service is free in time; both with `Retry-After`.',
        'Generated from the valibot schemas the routes validate with (src/openapi/); regenerate with `npm run gen:openapi`.',
      ].join('\n'),
    },
    tags: [
      { name: 'counter', description: 'The counter REST API and its event stream' },
      { name: 'server functions', description: "The browser UI's RPC routes (same commands, same errors)" },
      { name: 'auth', description: 'Password accounts, sessions, operator storage status' },
      { name: 'oauth', description: 'OAuth 2.0 / OpenID Connect sign-in (RFC 6749, OIDC Core)' },
      { name: 'admin', description: 'Administration of accounts, for AAL2 system administrators (an operator token)' },
      { name: 'service', description: 'Health and this contract' },
    ],
    paths,
    components: {
      schemas: schemas.components(),
      securitySchemes: {
        operatorToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'ES256 operator token from the configured issuer, or `npm run auth:token` in development (multi-factor `amr` or `acr`, role system_admin)',
        },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: `the session cookie set by sign-in: ${cookieNames(sessionCookieName)}` },
      },
      responses: {
        MethodNotAllowed: {
          description: 'a known path with a method it does not take',
          headers: { Allow: header('Allow', true) },
          content: {
            'application/json': { schema: schemas.ref('ErrorEnvelope'), example: errorEnvelope(new AppError('method_not_allowed', EXAMPLE_MESSAGES.method_not_allowed)) },
            'text/html': { schema: { type: 'string', description: BROWSER_ERROR_PAGE } },
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
