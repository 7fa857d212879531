/**
 * Post/redirect/get for the auth pages' HTML forms: a refused form post is answered with a 303 back
 * to the page the form is on, the refusal in that page's query (which form, the error code, a refused
 * password's reason, and for a rate limit the moment it lifts), so the browser stays on the page's
 * own address, a reload does not post again, and the page puts the error beside its field. The
 * page writes its own words from these; it never prints the query. A kept email travels in the
 * form-echo cookie (./form-echo.ts), never a password.
 */
import * as v from 'valibot';
import { APP_ERROR_CODES, RateLimitedError, type AppError, type AppErrorCode } from '../../errors.ts';
import { PasswordRejected } from '../domain/password-policy.ts';

/** The refusal as its page reads it back. */
export interface ReturnedRefusal {
  /** which form of the page was refused (a page may hold several) */
  form: string;
  code: AppErrorCode;
  /** a refused new password's reason (`too_short`, …) */
  reason?: string | undefined;
  /** when a rate limit lifts, in Unix seconds */
  retryAt?: number | undefined;
}

const Name = v.pipe(v.string(), v.regex(/^[a-z_]{1,32}$/));
const QuerySchema = v.object({
  error: v.picklist(APP_ERROR_CODES),
  form: v.optional(Name),
  reason: v.optional(Name),
  retry_at: v.optional(v.pipe(v.string(), v.regex(/^[0-9]{1,12}$/), v.transform(Number))),
});

/**
 * The page address a refused post of `form` returns to: `path` with the page's own parameters
 * (`keep`: `next`, a link's `token`) and the refusal's.
 */
export function refusedFormUrl(path: string, form: string, failure: AppError, nowMs: number, keep: Record<string, string | undefined> = {}): string {
  const query = new URLSearchParams({ error: failure.code, form });
  if (failure instanceof PasswordRejected) query.set('reason', failure.problem);
  if (failure instanceof RateLimitedError) query.set('retry_at', String(Math.ceil(nowMs / 1000) + failure.retryAfterSeconds));
  for (const [name, value] of Object.entries(keep)) if (value) query.set(name, value);
  return `${path}?${query.toString()}`;
}

/** The refusal a page was returned with, from its query; undefined when none (or not one of ours). */
export function returnedRefusal(query: (name: string) => string | undefined): ReturnedRefusal | undefined {
  const raw = Object.fromEntries(['error', 'form', 'reason', 'retry_at'].map((name) => [name, query(name)]).filter(([, value]) => value !== undefined));
  const parsed = v.safeParse(QuerySchema, raw);
  if (!parsed.success) return undefined;
  const { error, form, reason, retry_at } = parsed.output;
  return { form: form ?? '', code: error, reason, retryAt: retry_at };
}
