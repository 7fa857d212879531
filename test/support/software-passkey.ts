/**
 * A software WebAuthn authenticator for tests that drive the passkey routes without a browser
 * (REST level, under both hosts) and for attacks a browser would not let a page perform: an
 * assertion for another RP ID or origin, a replayed challenge, a counter that goes back. It makes
 * the same structures a platform authenticator does (WebAuthn Level 3 §6.1 authenticator data,
 * §6.5 attestation object with the `none` format, §5.8.1 client data) with a P-256 key (ES256).
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { encodeCBOR } from '@levischuck/tiny-cbor';

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest();

/** Flags of authenticator data (§6.1): user present, user verified, backup eligible/state, attested data. */
const UP = 0x01;
const UV = 0x04;
const BE = 0x08;
const BS = 0x10;
const AT = 0x40;

export interface CeremonyOptions {
  /** The RP ID whose hash goes into authenticator data (default: the one the options named). */
  rpId?: string;
  /** The origin the client data names. */
  origin: string;
  /** Clear the UV flag (a user-presence-only assertion). */
  withoutUserVerification?: boolean;
  /** Client data `type` (default `webauthn.get` / `webauthn.create`). */
  type?: string;
}

export class SoftwarePasskey {
  readonly credentialId = randomBytes(16);
  readonly #privateKey: KeyObject;
  readonly #publicJwk: { x: string; y: string };
  /** The signature counter the next assertion carries (incremented before each). */
  counter = 0;
  /** The user handle given at registration (what assertions return). */
  userHandle: string | undefined;

  constructor() {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.#privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    this.#publicJwk = { x: jwk.x!, y: jwk.y! };
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  /** The COSE public key, base64url: what the server stores for this credential. */
  get publicKey(): string {
    return b64url(this.#coseKey());
  }

  #coseKey(): Uint8Array {
    const key = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(this.#publicJwk.x, 'base64url')],
      [-3, Buffer.from(this.#publicJwk.y, 'base64url')],
    ]);
    return encodeCBOR(key);
  }

  #authData(rpId: string, flags: number, attested: boolean): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter);
    const parts = [sha256(rpId), Buffer.from([flags]), count];
    if (attested) {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(this.credentialId.length);
      parts.push(Buffer.alloc(16), length, this.credentialId, Buffer.from(this.#coseKey()));
    }
    return Buffer.concat(parts);
  }

  static #clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** A registration response (RegistrationResponseJSON) for creation options from the server. */
  register(options: { challenge: string; rp: { id?: string }; user: { id: string } }, ceremony: CeremonyOptions): Record<string, unknown> {
    this.userHandle = options.user.id;
    const rpId = ceremony.rpId ?? options.rp.id ?? new URL(ceremony.origin).hostname;
    const flags = UP | (ceremony.withoutUserVerification ? 0 : UV) | BE | BS | AT;
    const authData = this.#authData(rpId, flags, true);
    const attestationObject = encodeCBOR(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]) as never,
    );
    const clientDataJSON = SoftwarePasskey.#clientData(ceremony.type ?? 'webauthn.create', options.challenge, ceremony.origin);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** An authentication response (AuthenticationResponseJSON) for request options from the server. */
  assert(options: { challenge: string; rpId?: string }, ceremony: CeremonyOptions & { userHandle?: string; counter?: number }): Record<string, unknown> {
    if (ceremony.counter !== undefined) this.counter = ceremony.counter;
    else this.counter += 1;
    const rpId = ceremony.rpId ?? options.rpId ?? new URL(ceremony.origin).hostname;
    const authData = this.#authData(rpId, UP | (ceremony.withoutUserVerification ? 0 : UV) | BE | BS, false);
    const clientDataJSON = SoftwarePasskey.#clientData(ceremony.type ?? 'webauthn.get', options.challenge, ceremony.origin);
    // §6.3.3: the signature is over authenticatorData || SHA-256(clientDataJSON), ECDSA DER-encoded.
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.#privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: ceremony.userHandle ?? this.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
