/**
 * The operations of the OAuth routes (routes.tsx) and the schema of the callback's form post, for
 * the API document (src/openapi/ assembles them).
 */
import * as v from 'valibot';
import type { ApiContract, OperationSpec, ParameterSpec } from '../../http/operation.ts';
import { FORM_OR_NONE } from '../operation-words.ts';
import { PROVIDER_IDS } from './provider-ids.ts';
import { codeSchema, errorSchema } from './callback-params.ts';

/**
 * What the callback refuses beyond each value's own limits (RFC 6749 §4.1.2, §10.12): no schema can
 * say "a state the start route issued", so every generated state is refused with 400.
 */
const CALLBACK_FIELDS = {
  code: 'the authorization code; with `state`, and without `error`',
  state:
    'the state the start route issued for this provider, in this browser, at most 10 minutes ago, not yet used: any other answers 400 `validation` (reason `oauth_state_unknown`, `oauth_state_expired`, `oauth_provider_mismatch`), 403 (`oauth_browser_mismatch`) or 409 (`oauth_state_reused`)',
  error:
    "the provider's error code (then no `code`); an unknown code is kept as `other`. Sent with `code`, or repeated, any parameter makes the response malformed: 400 `validation` (reason `oauth_callback_malformed`)",
  user: 'provider_c only, with `code`: its small JSON user object on first sign-in (at most 4096 UTF-16 code units)',
} as const;

const PROVIDER = v.picklist(PROVIDER_IDS);
/** Either `code` and `state`, or the provider's `error` (RFC 6749 §4.1.2, §4.1.2.1); each at most once. */
const CALLBACK_QUERY: ParameterSpec[] = Object.entries({ ...errorSchema.entries, ...codeSchema.entries }).map(([name, schema]) => ({
  name,
  in: 'query',
  description: CALLBACK_FIELDS[name as keyof typeof CALLBACK_FIELDS],
  schema: schema.type === 'optional' ? schema.wrapped : schema,
}));
/** The callback parses a code with its state, or, when `error` is present, the provider's error (./callback-params.ts). */
const CALLBACK_FORM_PARSED = v.union([codeSchema, errorSchema]);
const OAUTH_HTML_ERRORS = { description: 'the sign-in error page (requests without Accept: application/json)' } as const;
/** What the callbacks do with a state started by "Link <provider>". */
const LINK_CALLBACK =
  "A state started by the link route links the identity to the account whose session started it instead of signing in (no new session), when that session is still active and the provider's verified email is the account's verified address; else 403 or 409 with an `oauth_link_*` reason and nothing linked.";

const OPERATIONS: readonly OperationSpec[] = [
  {
    method: 'get',
    path: '/api/auth/oauth/{provider}/start',
    operationId: 'startOAuthSignIn',
    tag: 'oauth',
    summary: 'Start signing in with a provider',
    parameters: [
      { name: 'provider', in: 'path', required: true, description: 'a provider id; only offered providers answer 302', schema: PROVIDER },
      { name: 'next', in: 'query', description: 'same-site path to land on after sign-in (anything else becomes /dashboard)', schema: v.string() },
    ],
    success: {
      '302': {
        kind: 'redirect',
        description: "to the provider's authorization endpoint (or, with the development bypass, to our own callback), with the browser-binding cookie the callback needs",
        headers: ['Location', 'Set-Cookie-Binding'],
      },
    },
    errors: ['forbidden', 'not_found', 'rate_limited', 'store', 'internal', 'configuration'],
    htmlErrors: OAUTH_HTML_ERRORS,
  },
  {
    method: 'post',
    path: '/api/auth/oauth/{provider}/link',
    operationId: 'startOAuthLink',
    tag: 'oauth',
    summary: 'Link a provider to the signed-in account (the /dashboard "Link <provider>" form)',
    security: 'session',
    description: `Starts the provider's flow with a link intent bound to this session; any body is ignored. ${FORM_OR_NONE} Without a session: 401 (reason \`oauth_link_sign_in_required\`); an account whose address is not verified: 403 (\`oauth_link_account_unverified\`). At the callback the identity is linked only if this session is still the browser's and active, and the provider's verified email is the account's verified address (docs/security.md, "The linking rule").`,
    parameters: [{ name: 'provider', in: 'path', required: true, description: 'a provider id; only offered providers answer 303', schema: PROVIDER }],
    success: {
      '303': {
        kind: 'redirect',
        description: "to the provider's authorization endpoint (or, with the development bypass, to our own callback), with the browser-binding cookie",
        headers: ['Location', 'Set-Cookie-Binding'],
      },
    },
    errors: ['unauthorized', 'forbidden', 'not_found', 'rate_limited', 'payload_too_large', 'store', 'internal', 'configuration'],
    htmlErrors: OAUTH_HTML_ERRORS,
  },
  {
    method: 'get',
    path: '/api/auth/oauth/{provider}/callback',
    operationId: 'completeOAuthSignIn',
    tag: 'oauth',
    summary: 'The provider sends the browser back here (query response mode)',
    description: `Needs the browser-binding cookie set by the start route in this browser: without it, or with another one, 403 \`forbidden\` with reason \`oauth_browser_mismatch\`. ${LINK_CALLBACK}`,
    parameters: [{ name: 'provider', in: 'path', required: true, description: 'a provider id', schema: PROVIDER }, ...CALLBACK_QUERY],
    success: {
      '302': {
        kind: 'redirect',
        description: 'signed in: the session cookie and a redirect to the safe `next` path; linked: a redirect to /dashboard, no cookie',
        headers: ['Location', 'Set-Cookie?'],
      },
    },
    errors: ['validation', 'not_found', 'conflict', 'forbidden', 'account_disabled', 'unauthorized', 'store', 'internal', 'configuration'],
    htmlErrors: OAUTH_HTML_ERRORS,
  },
  {
    method: 'post',
    path: '/api/auth/oauth/{provider}/callback',
    operationId: 'completeOAuthSignInFormPost',
    tag: 'oauth',
    summary: 'The provider posts the browser back here (form_post response mode, provider_c)',
    description: `Same browser binding as the GET callback. ${LINK_CALLBACK} A form post is cross-site, so the session cookie (SameSite=Lax) does not come with it: a link then needs the session that started it to be still active.`,
    parameters: [{ name: 'provider', in: 'path', required: true, description: 'a provider id', schema: PROVIDER }],
    body: { schema: 'OAuthCallbackForm', parsedWith: CALLBACK_FORM_PARSED, mediaTypes: ['application/x-www-form-urlencoded'], required: true },
    success: {
      '303': {
        kind: 'redirect',
        description: 'signed in: the session cookie and a redirect to the safe `next` path; linked: a redirect to /dashboard, no cookie',
        headers: ['Location', 'Set-Cookie?'],
      },
    },
    errors: [
      'validation',
      'not_found',
      'conflict',
      'forbidden',
      'account_disabled',
      'unauthorized',
      'payload_too_large',
      'unsupported_media_type',
      'store',
      'internal',
      'configuration',
    ],
    htmlErrors: OAUTH_HTML_ERRORS,
  },
];

const optionalEntries = (entries: v.ObjectEntries) => Object.fromEntries(Object.entries(entries).map(([k, s]) => [k, v.optional(s as v.GenericSchema)]));

export const OAUTH_CONTRACT: ApiContract = {
  schemas: { OAuthCallbackForm: v.object({ ...optionalEntries(codeSchema.entries), ...optionalEntries(errorSchema.entries) }) },
  operations: OPERATIONS,
};
