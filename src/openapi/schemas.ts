/**
 * The error envelope as the API document publishes it: the document's own schema, which every
 * operation's error answers refer to. Checked against the TypeScript type the edge answers with
 * (`Exact<…>` fails the type check when the two drift apart).
 */
import * as v from 'valibot';
import { APP_ERROR_CODES } from '../errors.ts';
import { OAUTH_FAILURES } from '../auth/oauth/flow/failures.ts';
import type { ErrorEnvelope } from '../http/errors.ts';

/** Compile-time proof that a schema's output is exactly `T` (both directions assignable). */
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const exact = <_ extends true>(): void => undefined;

export const ErrorEnvelopeSchema = v.object({
  error: v.object({
    code: v.picklist(APP_ERROR_CODES),
    message: v.pipe(v.string(), v.description('public text; never internal detail')),
    reason: v.optional(v.pipe(v.picklist(Object.keys(OAUTH_FAILURES) as Array<keyof typeof OAUTH_FAILURES>), v.description('OAuth routes only, with Accept: application/json'))),
  }),
});
exact<Exact<Omit<v.InferOutput<typeof ErrorEnvelopeSchema>['error'], 'reason'>, ErrorEnvelope['error']>>();
