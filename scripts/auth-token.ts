/**
 * `npm run auth:token -- --sub <operator> [--amr pwd --amr otp] [--acr phr] [--role system_admin] [--ttl 10m]`
 * `npm run -s auth:token -- --print-jwks`
 *
 * Local-development signer of operator tokens (the storage-status endpoint). In production an
 * identity provider mints them (docs/security.md, "Operator tokens"); this command stands in for
 * it. It keeps a dev ES256 key pair in `--key-file` (default `$DATA_DIR/operator-token-dev-key.json`,
 * `DATA_DIR` defaulting to `./data`), created on first use with mode 0600, and refuses a key file
 * others can read. `--print-jwks` prints the public JWK Set to put in `AUTH_SYSTEM_TOKEN_JWKS`;
 * the service never gets the private key. Claims: `iss` = AUTH_SYSTEM_TOKEN_ISSUER, `aud` =
 * AUTH_SYSTEM_TOKEN_AUDIENCE (same defaults as the service; read from the environment or `.env`),
 * `sub`, `amr` (RFC 8176), `acr` when given, `roles`, `iat`, `exp`, `jti`. Prints only the token.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { parseArgs, parseEnv } from 'node:util';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';

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

/** The dev key pair (private JWK), created with mode 0600 on first use. */
async function devKey(file: string): Promise<JWK> {
  if (existsSync(file)) {
    // Like ssh: a private key readable by group or others is not used.
    if ((statSync(file).mode & 0o077) !== 0) fail(`${file} is readable by other users: chmod 600 it (or delete it to make a new key)`);
    return JSON.parse(readFileSync(file, 'utf8')) as JWK;
  }
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = `dev-${(await calculateJwkThumbprint(jwk)).slice(0, 16)}`;
  const full: JWK = { ...jwk, kid, alg: 'ES256', use: 'sig' };
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(full)}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  process.stderr.write(`created a development operator-token key in ${file}; configure the service with AUTH_SYSTEM_TOKEN_JWKS (npm run -s auth:token -- --print-jwks)\n`);
  return full;
}

const { values } = parseArgs({
  options: {
    sub: { type: 'string' },
    amr: { type: 'string', multiple: true },
    acr: { type: 'string' },
    role: { type: 'string', multiple: true, default: ['system_admin'] },
    ttl: { type: 'string', default: '10m' },
    'key-file': { type: 'string' },
    'print-jwks': { type: 'boolean', default: false },
  },
});

if (existsSync('.env')) {
  for (const [key, value] of Object.entries(parseEnv(readFileSync('.env', 'utf8')))) process.env[key] ??= value;
}
const keyFile = values['key-file'] ?? join(process.env['DATA_DIR'] || 'data', 'operator-token-dev-key.json');
const privateJwk = await devKey(keyFile);
const { d: _private, ...publicJwk } = privateJwk;

if (values['print-jwks']) {
  process.stdout.write(`${JSON.stringify({ keys: [publicJwk] })}\n`);
  process.exit(0);
}
if (!values.sub) fail('--sub <operator id> is required');
const ttl = parseTtl(values.ttl);
// The dev signer asserts a password + one-time-code sign-in unless told otherwise.
const amr = values.amr ?? ['pwd', 'otp'];

const token = await new SignJWT({ amr, ...(values.acr ? { acr: values.acr } : {}), roles: values.role })
  .setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid: privateJwk.kid })
  .setIssuer(process.env['AUTH_SYSTEM_TOKEN_ISSUER'] || DEFAULT_ISSUER)
  .setAudience(process.env['AUTH_SYSTEM_TOKEN_AUDIENCE'] || DEFAULT_AUDIENCE)
  .setSubject(values.sub)
  .setJti(randomUUID())
  .setIssuedAt()
  .setExpirationTime(`${ttl}s`)
  .sign(await importJWK(privateJwk, 'ES256'));
process.stdout.write(`${token}\n`);
