/** One passkey of the signed-in user as the API shows it (./manage.ts), checked against its TypeScript type. */
import * as v from 'valibot';
import { timestamp } from '../operation-words.ts';
import type { PasskeySummary } from './manage.ts';

/** Compile-time proof that a schema's output is exactly `T` (both directions assignable). */
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const exact = <_ extends true>(): void => undefined;

/** One passkey of the signed-in user (src/auth/passkeys/manage.ts). */
export const PasskeySchema = v.object({
  id: v.pipe(v.string(), v.description('SHA-256 (hex) of the credential id: what rename and remove take')),
  name: v.string(),
  created_at: timestamp('RFC 3339, UTC'),
  last_used_at: v.nullable(timestamp('RFC 3339, UTC; null before its first sign-in')),
  backed_up: v.pipe(v.boolean(), v.description('a synced passkey (WebAuthn Level 3 §6.1.3, backup state)')),
  transports: v.array(v.string()),
});
exact<Exact<v.InferOutput<typeof PasskeySchema>, PasskeySummary>>();
