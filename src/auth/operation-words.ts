/** Words the auth routes' operations and answer schemas share (their contracts: rest/, passkeys/, oauth/). */
import * as v from 'valibot';

export const JSON_OR_FORM = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'] as const;
export const READ = ['store', 'internal'] as const;
/** The signed-in user's session routes (src/auth/rest/session-routes.ts): 401 without a session. */
export const SESSION_WRITE = ['unauthorized', 'forbidden', 'not_found', 'store', 'internal'] as const;
export const FORM_OR_NONE = 'Cross-site requests (by `Origin`, else `Sec-Fetch-Site`) are refused with 403.';

/** A time in an answer: RFC 3339, as `toISOString` writes it. */
export const timestamp = (description: string) => v.pipe(v.string(), v.isoTimestamp(), v.description(description));
