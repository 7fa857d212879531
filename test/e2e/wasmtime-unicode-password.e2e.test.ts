/**
 * Non-ASCII passwords under the real `wasmtime serve` (the composed standalone component, file
 * store), through the product's REST routes: registered with é decomposed and full-width letters,
 * signed in with é composed and plain letters (the guest hashes the NFKC form with bundled tables);
 * the PHC string wasmtime stored verifies on the Node host (host/password/) in every form; an
 * account whose hash the Node host made (written into the same data directory by the auth
 * application over node:fs) signs in under wasmtime; a character the tables cannot normalize
 * exactly answers 400 validation at registration and sign-in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../host/password/index.ts';
import { registerWithPassword } from '../../src/auth/application/index.ts';
import { parseAuthConfig } from '../../src/auth/config.ts';
import { UNSUPPORTED_CHARACTER_MESSAGE } from '../../src/auth/domain/password-policy.ts';
import { unfencedLeases } from '../../src/platform/leases/unfenced-leases.ts';
import type { PasswordHasher } from '../../src/platform/ports.ts';
import { openFileStorage } from '../../src/platform/standalone/file-storage.ts';
import { createMemoryPlatform } from '../../src/platform/testing/memory-platform.ts';
import { expectError, postJson, uniqueEmail } from '../auth/support.ts';
import { tempDataDir } from '../../harness/host-process.ts';
import { requireTool } from '../../harness/tools.ts';
import { startWasmtime, type WasmtimeProcess } from '../../harness/wasmtime-process.ts';
import { nodeFileSystem } from '../../scripts/wasmtime/node-file-system.ts';

const wasmtime = requireTool('wasmtime');

const COMPOSED = 'cl\u00e9 ｆｕｌｌ-width staple';
const DECOMPOSED = 'cle\u0301 ｆｕｌｌ-width staple';
const FOLDED = 'cl\u00e9 full-width staple';
const UNACCENTED = 'cle full-width staple';

const register = (url: string, email: string, password: string) => postJson(url, '/api/auth/password/register', { email, password });
const login = (url: string, email: string, password: string) => postJson(url, '/api/auth/password/login', { email, password });

/** The password hash of `email`'s account, read from the data directory with the store's own code. */
function storedHash(dataDir: string, email: string): string {
  const events = openFileStorage(nodeFileSystem(dataDir)).events.readAll(0n, 1000);
  const registered = events
    .filter((event) => event.eventType === 'auth_password_user_registered')
    .map((event) => JSON.parse(event.payload) as { email: string; password_hash: string })
    .find((payload) => payload.email === email);
  expect(registered, email).toBeDefined();
  return registered!.password_hash;
}

/** Registers `email` into the data directory as the Node host would: the auth application, the Node host's Argon2id. */
async function registerAsNodeHost(dataDir: string, email: string, password: string): Promise<void> {
  const nodeHash = await hashPassword(password);
  const hashes: string[] = [];
  const passwords: PasswordHasher = {
    hash: (normalized) => {
      hashes.push(normalized);
      return nodeHash;
    },
    verify: () => false,
  };
  const store = openFileStorage(nodeFileSystem(dataDir));
  const platform = {
    ...createMemoryPlatform({ startMs: Date.now() }),
    events: store.events,
    leases: unfencedLeases(store.events),
    projections: store.projections,
    keyValue: store.keyValue,
    passwords,
  };
  await expect(registerWithPassword({ platform, config: parseAuthConfig(new Map()) }, { email, password })).resolves.toMatchObject({ created: true });
  // The application handed over the NFKC form, which is what nodeHash was made from.
  expect(hashes).toEqual([password.normalize('NFKC')]);
}

describe.skipIf(!wasmtime)('non-ASCII passwords under wasmtime serve', () => {
  const dataDir = tempDataDir('wasmtime-unicode-');
  const nodeEmail = uniqueEmail('node-made');
  let server: WasmtimeProcess;
  beforeAll(async () => {
    await registerAsNodeHost(dataDir, nodeEmail, COMPOSED);
    server = await startWasmtime({ dataDir }, wasmtime!.path);
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('registers with é decomposed and full-width letters, signs in with é composed and plain letters', async () => {
    const email = uniqueEmail('unicode');
    expect((await register(server.url, email, DECOMPOSED)).status).toBe(202);
    for (const form of [COMPOSED, DECOMPOSED, FOLDED]) expect((await login(server.url, email, form)).status, form).toBe(200);
    await expectError(await login(server.url, email, UNACCENTED), 401, 'invalid_credentials');
  });

  it('stores a PHC string the Node host verifies with every form of the password', async () => {
    const email = uniqueEmail('unicode-phc');
    expect((await register(server.url, email, COMPOSED)).status).toBe(202);
    const encoded = storedHash(dataDir, email);
    expect(encoded).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    for (const form of [COMPOSED, DECOMPOSED, FOLDED]) expect(await verifyPassword(form, encoded), form).toBe(true);
    expect(await verifyPassword(UNACCENTED, encoded)).toBe(false);
  });

  it('signs in to an account whose hash the Node host made, with every form of the password', async () => {
    for (const form of [COMPOSED, DECOMPOSED, FOLDED]) expect((await login(server.url, nodeEmail, form)).status, form).toBe(200);
    await expectError(await login(server.url, nodeEmail, UNACCENTED), 401, 'invalid_credentials');
  });

  it('answers 400 validation for a character the bundled tables cannot normalize exactly', async () => {
    const email = uniqueEmail('unsupported');
    const password = 'correct horse \u07fd battery';
    await expectError(await register(server.url, email, password), 400, 'validation', UNSUPPORTED_CHARACTER_MESSAGE);
    await expectError(await login(server.url, email, password), 400, 'validation', UNSUPPORTED_CHARACTER_MESSAGE);
  });
});
