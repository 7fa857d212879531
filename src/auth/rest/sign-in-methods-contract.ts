/** The operations of the sign-in method routes (./sign-in-method-routes.ts) and their schemas, for the API document. */
import * as v from 'valibot';
import type { ApiContract, OperationSpec } from '../../http/operation.ts';
import { FORM_OR_NONE, JSON_OR_FORM } from '../operation-words.ts';
import { SIGN_IN_METHOD_PATHS, SignInMethodRemovalSchema } from './sign-in-method-routes.ts';

const SignInMethodSchema = v.object({
  method: v.pipe(v.string(), v.description('`password`, `provider:<id>` or `passkey:<id>`: what the removal takes')),
  kind: v.picklist(['password', 'provider', 'passkey']),
  id: v.optional(v.pipe(v.string(), v.description("the provider's id or the passkey's id"))),
  name: v.optional(v.pipe(v.string(), v.description("the passkey's name, or the provider's id"))),
  removable: v.pipe(v.boolean(), v.description('whether it can be removed now: another way in remains')),
  refusal: v.optional(v.pipe(v.picklist(['last_way_in']), v.description('why it cannot be removed now'))),
});

const OPERATIONS: readonly OperationSpec[] = [
  {
    method: 'get',
    path: SIGN_IN_METHOD_PATHS.list,
    operationId: 'listSignInMethods',
    tag: 'auth',
    summary: 'Your sign-in methods, and which can be removed now',
    security: 'session',
    description: 'The password (when the account has one), each linked provider and each passkey. Each one is removable only while another way in remains.',
    success: { '200': { kind: 'json', schema: 'SignInMethodList', description: 'the methods' } },
    errors: ['unauthorized', 'store', 'internal'],
  },
  {
    method: 'post',
    path: SIGN_IN_METHOD_PATHS.remove,
    operationId: 'removeSignInMethod',
    tag: 'auth',
    summary: 'Unlink a provider, remove a passkey or remove the password',
    security: 'session',
    description: `Only while another way in remains (a password, a linked provider, a passkey): removing the last one answers 409 \`conflict\`. Re-authentication as for account deletion: \`password\`, or none right after a provider or passkey sign-in (at most 5 minutes old), else 403; wrong passwords count in the login's own limits (429 with Retry-After past them). An unlinked identity no longer signs in to this account (a later sign-in with it gets an account of its own). The other sessions of the account end; its verified address is told by mail. ${FORM_OR_NONE} A form post gets a 303 to /dashboard with a notice; a refused one, back to /dashboard with the error code (to /login when signed out).`,
    body: { schema: 'SignInMethodRemoval', parsedWith: SignInMethodRemovalSchema, mediaTypes: JSON_OR_FORM, required: true },
    success: {
      '200': { kind: 'json', schema: 'SignInMethodRemoved', description: 'removed (JSON request)' },
      '303': { kind: 'redirect', description: 'form post: to /dashboard with the notice, or back to /dashboard with the error code', headers: ['Location'] },
    },
    errors: ['validation', 'unauthorized', 'forbidden', 'not_found', 'conflict', 'rate_limited', 'payload_too_large', 'unsupported_media_type', 'store', 'internal'],
  },
];

export const SIGN_IN_METHODS_CONTRACT: ApiContract = {
  schemas: {
    SignInMethodList: v.object({ methods: v.array(SignInMethodSchema) }),
    SignInMethodRemoval: SignInMethodRemovalSchema,
    SignInMethodRemoved: v.object({
      removed: v.pipe(v.string(), v.description('the method removed')),
      sessions_ended: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('the other sessions of the account that ended')),
    }),
  },
  operations: OPERATIONS,
};
