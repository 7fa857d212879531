/**
 * `npm run auth:token -- --sub <operator> --aal aal2 --role system_admin --ttl 10m`
 *
 * Mints a short-lived HS256 JWT for the auth service's operator endpoints (storage status) with
 * `AUTH_SYSTEM_TOKEN_SECRET` (read from the environment or `.env`; at least 32 bytes). Claims:
 * `iss` = AUTH_SYSTEM_TOKEN_ISSUER, `aud` = AUTH_SYSTEM_TOKEN_AUDIENCE (same defaults as the
 * service), `sub`, `aal`, `roles`, `iat`, `exp`, `jti`. Prints only the token, on stdout.
 */
import { existsSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { parseArgs, parseEnv } from 'node:util';
import { SignJWT } from 'jose';

const DEFAULT_ISSUER = 'wasi-counter-auth';
const DEFAULT_AUDIENCE = 'wasi-counter-auth:storage-status';
const MAX_TTL_SECONDS = 24 * 3600;

function fail(message: string): never {
  process.stderr.write(`error: ${message}\n`);
  process.exit(2);
}

/** `90s`, `10m`, `1h` or plain seconds. */
function parseTtl(text: string): number {
  const match = /^(\d+)([smh]?)$/.exec(text);
  if (!match) fail('--ttl must look like 90s, 10m or 1h');
  const seconds = Number(match[1]) * ({ '': 1, s: 1, m: 60, h: 3600 } as const)[match[2] as '' | 's' | 'm' | 'h'];
  if (seconds < 1 || seconds > MAX_TTL_SECONDS) fail(`--ttl must be between 1s and ${MAX_TTL_SECONDS / 3600}h`);
  return seconds;
}

const { values } = parseArgs({
  options: {
    sub: { type: 'string' },
    aal: { type: 'string', default: 'aal2' },
    role: { type: 'string', multiple: true, default: ['system_admin'] },
    ttl: { type: 'string', default: '10m' },
  },
});

if (existsSync('.env')) {
  for (const [key, value] of Object.entries(parseEnv(readFileSync('.env', 'utf8')))) process.env[key] ??= value;
}
const secret = process.env['AUTH_SYSTEM_TOKEN_SECRET'];
if (!secret || Buffer.byteLength(secret) < 32) fail('AUTH_SYSTEM_TOKEN_SECRET must be set to at least 32 bytes');
if (!values.sub) fail('--sub <operator id> is required');
if (values.aal !== 'aal1' && values.aal !== 'aal2') fail('--aal must be aal1 or aal2');
const ttl = parseTtl(values.ttl);

const token = await new SignJWT({ aal: values.aal, roles: values.role })
  .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
  .setIssuer(process.env['AUTH_SYSTEM_TOKEN_ISSUER'] ?? DEFAULT_ISSUER)
  .setAudience(process.env['AUTH_SYSTEM_TOKEN_AUDIENCE'] ?? DEFAULT_AUDIENCE)
  .setSubject(values.sub)
  .setJti(randomUUID())
  .setIssuedAt()
  .setExpirationTime(`${ttl}s`)
  .sign(new TextEncoder().encode(secret));
process.stdout.write(`${token}\n`);
