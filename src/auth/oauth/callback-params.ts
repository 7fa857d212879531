/**
 * The parameters a provider sends back to the callback (RFC 6749 §4.1.2 and §4.1.2.1): from the
 * query string (GET) or the form body (provider_c's form_post). Either a code with its state, or a
 * provider error with its state; anything else is malformed. Values are length-limited; the
 * provider's `error` is kept only when it is one of the RFC's codes (it ends up in logs).
 */
import * as v from 'valibot';

const PROVIDER_ERRORS = [
  'invalid_request',
  'unauthorized_client',
  'access_denied',
  'unsupported_response_type',
  'invalid_scope',
  'server_error',
  'temporarily_unavailable',
  // provider_c sends this when the person closes its sign-in window
  'user_cancelled_authorize',
] as const;

export type ProviderErrorCode = (typeof PROVIDER_ERRORS)[number] | 'other';

export type CallbackParams =
  | { kind: 'code'; code: string; state: string; user: string | undefined }
  | { kind: 'provider_error'; error: ProviderErrorCode; state: string | undefined }
  | { kind: 'malformed' };

const token = (max: number) => v.pipe(v.string(), v.minLength(1), v.maxLength(max), v.regex(/^[\x21-\x7e]+$/));
/** Exported for the OpenAPI document, which lists the union of both shapes' fields as optional parameters. */
export const codeSchema = v.object({ code: token(2048), state: token(512), user: v.optional(v.pipe(v.string(), v.maxLength(4096))) });
export const errorSchema = v.object({ error: token(128), state: v.optional(token(512)) });

/** Reads callback parameters from `URLSearchParams` (query, or a parsed form body). */
export function parseCallbackParams(params: URLSearchParams): CallbackParams {
  const names = ['code', 'state', 'user', 'error'];
  // A repeated parameter is ambiguous: refuse rather than pick one.
  if (names.some((n) => params.getAll(n).length > 1)) return { kind: 'malformed' };
  const fields = Object.fromEntries(names.flatMap((n) => (params.has(n) ? [[n, params.get(n)!]] : [])));
  if (fields.error !== undefined) {
    const parsed = v.safeParse(errorSchema, fields);
    if (!parsed.success) return { kind: 'malformed' };
    const known = (PROVIDER_ERRORS as readonly string[]).includes(parsed.output.error);
    return { kind: 'provider_error', error: known ? (parsed.output.error as ProviderErrorCode) : 'other', state: parsed.output.state };
  }
  const parsed = v.safeParse(codeSchema, fields);
  if (!parsed.success) return { kind: 'malformed' };
  return { kind: 'code', code: parsed.output.code, state: parsed.output.state, user: parsed.output.user };
}
