/**
 * Input of the password routes: a JSON body (API clients) or an HTML form post (the /login page,
 * which works without JavaScript). The mode decides how the answer is shaped: JSON, or a redirect.
 */
import type { Context } from 'hono';
import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import type { Credentials } from '../application/index.ts';

export type InputMode = 'json' | 'form';

export interface CredentialsInput {
  mode: InputMode;
  credentials: Credentials;
  /** Requested destination after sign-in (made safe by the caller). */
  next: string | undefined;
}

/** The password routes' body (JSON or form fields); also the wire shape the OpenAPI document publishes. */
export const CredentialsSchema = v.object(
  {
    email: v.pipe(v.string('email must be a string'), v.description('an email address: its shape is checked after parsing (else 400 validation)')),
    password: v.pipe(
      v.string('password must be a string'),
      v.description(
        'register: at least capabilities.password.min_length characters after NFKC; register and login: only characters assigned in Unicode 17.0 whose NFKC the service computes exactly, all but 434 of them (else 400 validation)',
      ),
    ),
    next: v.optional(v.string()),
  },
  'body must be a JSON object with string "email" and "password"',
);

/**
 * An HTML form post (a page without JavaScript) rather than an API call, for routes that read no
 * body and so answer either kind: the form gets a redirect, the API client JSON.
 */
export function isFormPost(c: Context): boolean {
  return /^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(c.req.header('content-type') ?? '');
}

/** JSON or form, by Content-Type; anything else is 415. Empty form values are missing values. */
export function inputMode(c: Context): InputMode {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json') return 'json';
  if (type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data') return 'form';
  throw new AppError('unsupported_media_type', 'send application/json or a form');
}

async function rawBody(c: Context, mode: InputMode): Promise<unknown> {
  if (mode === 'form') {
    let form: Record<string, unknown>;
    try {
      form = await c.req.parseBody();
    } catch (error) {
      // Found by Schemathesis: a multipart type without a boundary, or a broken multipart body,
      // made the parser throw a TypeError, answered 500 internal. It is the client's bad input.
      throw new AppError('validation', 'request body is not a valid form', { cause: error });
    }
    return Object.fromEntries(Object.entries(form).filter(([, value]) => typeof value === 'string'));
  }
  try {
    return await c.req.json();
  } catch (error) {
    throw new AppError('validation', 'request body is not valid JSON', { cause: error });
  }
}

/** A JSON or form body checked against `schema`; 400 validation with the first issue's message. */
export async function readInput<TSchema extends v.GenericSchema>(c: Context, schema: TSchema): Promise<{ mode: InputMode; input: v.InferOutput<TSchema> }> {
  const mode = inputMode(c);
  const result = v.safeParse(schema, await rawBody(c, mode));
  if (!result.success) throw new AppError('validation', result.issues[0]?.message ?? 'invalid body');
  return { mode, input: result.output };
}

export async function readCredentials(c: Context): Promise<CredentialsInput> {
  const mode = inputMode(c);
  const result = v.safeParse(CredentialsSchema, await rawBody(c, mode));
  if (!result.success) throw new AppError('validation', result.issues[0]?.message ?? 'invalid body');
  const { email, password, next } = result.output;
  return { mode, credentials: { email, password }, next };
}
