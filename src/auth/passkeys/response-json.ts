/**
 * The credential a browser sends back, as JSON (WebAuthn Level 3 `PublicKeyCredential.toJSON()`:
 * RegistrationResponseJSON, AuthenticationResponseJSON), checked for shape before any library
 * reads it; the library then checks every value. Also the challenge its client data names.
 * Every field is bounded, so that a body the schema accepts fits PASSKEY_MAX_BODY_BYTES (found by
 * Schemathesis: with 16 KiB per field a valid body could exceed the route's limit). Extension
 * results other than `credProps` are dropped: nothing here reads them.
 */
import * as v from 'valibot';
import { decodeClientDataJSON } from '@simplewebauthn/server/helpers';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { AppError } from '../../errors.ts';
import { PASSKEY_REFUSED } from './refusal.ts';

/** The passkey routes' body limit: a registration with the largest fields below stays under it. */
export const PASSKEY_MAX_BODY_BYTES = 48 * 1024;

const b64url = (what: string, max: number) =>
  v.pipe(v.string(`${what} must be a string`), v.maxLength(max, `${what} is too long`), v.regex(/^[A-Za-z0-9_-]*={0,2}$/, `${what} must be base64url`));

const common = {
  id: b64url('id', 1400),
  rawId: b64url('rawId', 1400),
  type: v.literal('public-key', 'type must be "public-key"'),
  clientExtensionResults: v.object({ credProps: v.optional(v.object({ rk: v.optional(v.boolean()) })) }),
  authenticatorAttachment: v.optional(v.picklist(['platform', 'cross-platform'])),
};

export const RegistrationResponseSchema = v.object({
  ...common,
  response: v.object({
    clientDataJSON: b64url('clientDataJSON', 4096),
    attestationObject: b64url('attestationObject', 16_384),
    transports: v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(32))), v.maxLength(8))),
    authenticatorData: v.optional(b64url('authenticatorData', 4096)),
    publicKey: v.optional(b64url('publicKey', 2048)),
    publicKeyAlgorithm: v.optional(v.number()),
  }),
});

export const AuthenticationResponseSchema = v.object({
  ...common,
  response: v.object({
    clientDataJSON: b64url('clientDataJSON', 4096),
    authenticatorData: b64url('authenticatorData', 4096),
    signature: b64url('signature', 2048),
    userHandle: v.optional(b64url('userHandle', 128)),
  }),
});

/** Typed as the library's own types (the schemas match their shape). */
export function asRegistrationResponse(value: v.InferOutput<typeof RegistrationResponseSchema>): RegistrationResponseJSON {
  return value as RegistrationResponseJSON;
}
export function asAuthenticationResponse(value: v.InferOutput<typeof AuthenticationResponseSchema>): AuthenticationResponseJSON {
  return value as AuthenticationResponseJSON;
}

/** The challenge the client data names (§5.8.1); refused when the client data is not JSON with one. */
export function challengeOf(clientDataJSON: string): string {
  try {
    const { challenge } = decodeClientDataJSON(clientDataJSON);
    if (typeof challenge === 'string') return challenge;
  } catch {
    // below
  }
  throw new AppError('invalid_credentials', PASSKEY_REFUSED);
}
