/**
 * REST input parsing for the counter routes: media type, JSON body and query validation with
 * valibot. Every rejection is an AppError with a public message naming what was wrong.
 */
import type { Context } from 'hono';
import * as v from 'valibot';
import { AppError } from '../errors.ts';
import { AMOUNT_MESSAGES, INT32_MAX } from './domain/int32.ts';
import { profileMark } from '../platform/profile.ts';

const BODY_NOT_OBJECT = 'request body must be a JSON object with an integer "amount"';

/**
 * A positive i32; the domain checks the same rules, this gives the same messages at the edge.
 * Exported as the wire shape the OpenAPI document publishes (src/openapi/).
 */
export const AmountValueSchema = v.pipe(
  v.number(AMOUNT_MESSAGES.notInteger),
  v.integer(AMOUNT_MESSAGES.notInteger),
  v.minValue(1, AMOUNT_MESSAGES.notPositive),
  v.maxValue(INT32_MAX, AMOUNT_MESSAGES.tooLarge),
);

/** `{"amount": n}`: the command body of increment (REST and server functions) and decrement (server function). */
export const AmountBodySchema = v.object({ amount: AmountValueSchema });

const AmountSchema = v.pipe(
  v.unknown(),
  v.check((input) => input !== undefined, AMOUNT_MESSAGES.required),
  AmountValueSchema,
);

const IncrementBodySchema = v.pipe(
  v.unknown(),
  v.check((input) => typeof input === 'object' && input !== null && !Array.isArray(input), BODY_NOT_OBJECT),
  v.object({ amount: v.optional(v.unknown()) }, BODY_NOT_OBJECT),
  v.transform((body) => body.amount),
  AmountSchema,
);

/** Query values are text: only an optional sign and digits count as an integer. */
const AmountQuerySchema = v.pipe(
  v.unknown(),
  v.check((input) => input !== undefined, AMOUNT_MESSAGES.required),
  v.string(AMOUNT_MESSAGES.notInteger),
  v.regex(/^[+-]?\d{1,20}$/, AMOUNT_MESSAGES.notInteger),
  // Typed as unknown so the shared schema (which accepts any input) can follow.
  v.transform((text): unknown => Number(text)),
  AmountSchema,
);

function validated<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return result.output;
  throw new AppError('validation', result.issues[0].message);
}

/** `application/json`, with or without parameters such as charset. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  const mediaType = contentType?.split(';', 1)[0]?.trim().toLowerCase();
  return mediaType === 'application/json';
}

/** Reads `{"amount": n}` from a JSON body (415 for other media types, 400 for bad JSON/values). */
export async function readAmountFromJsonBody(c: Context): Promise<number> {
  if (!isJsonMediaType(c.req.header('content-type'))) {
    throw new AppError('unsupported_media_type', 'content type must be application/json');
  }
  let body: unknown;
  try {
    const text = await c.req.text();
    GUEST_PROFILE: profileMark('body read');
    body = JSON.parse(text);
  } catch {
    throw new AppError('validation', 'request body must be valid JSON');
  }
  GUEST_PROFILE: profileMark('JSON parse');
  const amount = validated(IncrementBodySchema, body);
  GUEST_PROFILE: profileMark('validation');
  return amount;
}

/** Reads the `amount` query parameter (exactly one). */
export function readAmountFromQuery(c: Context): number {
  const values = c.req.queries('amount') ?? [];
  if (values.length > 1) throw new AppError('validation', 'amount must be given once');
  return validated(AmountQuerySchema, values[0]);
}

/** `{"amount": n}` already parsed from JSON, validated as REST validates it (the server functions reuse it). */
export function readAmountFromJsonValue(body: unknown): number {
  return validated(IncrementBodySchema, body);
}
