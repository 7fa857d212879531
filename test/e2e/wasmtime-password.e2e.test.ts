/**
 * The compiled password component (components/password-hashing/) through the composed component
 * under the real `wasmtime serve`: round trip, wrong password, malformed stored strings answer
 * the WIT's `invalid`, and hashes cross between it and the Node host's Argon2id
 * (host/password/) in both directions, non-ASCII passwords (NFKC in the guest) included. Driven through a test-only entry
 * (test/wasmtime/password-probe.ts) because no product route takes a stored hash as input.
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../host/password/index.ts';
import { requireTool } from '../../harness/tools.ts';
import { serveProbe } from '../../harness/wasmtime-probe-build.ts';

const wasmtime = requireTool('wasmtime');
const PASSWORD = 'correct horse battery staple';
const PHC = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/;

describe.skipIf(!wasmtime)('password component composed into the standalone component (wasmtime serve)', () => {
  let child: ChildProcess;
  let url: string;
  beforeAll(async () => {
    ({ url, child } = await serveProbe(join(import.meta.dirname, '..', 'wasmtime', 'password-probe.ts'), wasmtime!.path, 'wasmtime-pw-'));
  }, 600_000);
  afterAll(() => {
    child?.kill('SIGKILL');
  });

  const call = async (path: string, body: Record<string, string>): Promise<{ status: number; value?: unknown; error?: string }> => {
    const response = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, ...((await response.json()) as { value?: unknown; error?: string }) };
  };
  const hash = async (password: string) => {
    const result = await call('/hash', { password });
    expect(result.status).toBe(200);
    return result.value as string;
  };
  const verify = (password: string, encoded: string) => call('/verify', { password, encoded });

  it('hashes to the Node host PHC format with fresh salts and verifies its own hash', async () => {
    const [first, second] = [await hash(PASSWORD), await hash(PASSWORD)];
    expect(first).toMatch(PHC);
    expect(second).toMatch(PHC);
    expect(first).not.toBe(second);
    expect(await verify(PASSWORD, first)).toEqual({ status: 200, value: true });
  });

  it('refuses a wrong password', async () => {
    const encoded = await hash(PASSWORD);
    expect(await verify(`${PASSWORD}!`, encoded)).toEqual({ status: 200, value: false });
    expect(await verify('', encoded)).toEqual({ status: 200, value: false });
  });

  it('answers invalid for malformed or hostile stored strings', async () => {
    const good = await hash(PASSWORD);
    const [, , , params, salt, key] = good.split('$');
    const malformed = [
      '',
      'not a hash',
      `$argon2i$v=19$${params}$${salt}$${key}`,
      `$argon2id$v=16$${params}$${salt}$${key}`,
      `$argon2id$v=19$m=19456,t=2$${salt}$${key}`,
      `$argon2id$v=19$m=4194304,t=2,p=1$${salt}$${key}`, // 4 GiB: over the memory limit
      `$argon2id$v=19$m=19456,t=0,p=1$${salt}$${key}`,
      `$argon2id$v=19$${params}$${salt}$`,
      `$argon2id$v=19$${params}$sh0rt$${key}`,
      `$argon2id$v=19$${params}$${salt}$${key}$extra`,
      `$argon2id$v=19$${params}$${salt}$${key!.slice(0, -1)}*`,
      '$scrypt$ln=15,r=8,p=3$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    ];
    for (const encoded of malformed) expect(await verify(PASSWORD, encoded), encoded).toEqual({ status: 422, error: 'invalid' });
  });

  it('verifies a hash made by the Node host, and the Node host verifies its hash', async () => {
    const fromNode = await hashPassword(PASSWORD);
    expect(await verify(PASSWORD, fromNode)).toEqual({ status: 200, value: true });
    expect(await verify('another password', fromNode)).toEqual({ status: 200, value: false });
    const fromWasmtime = await hash(PASSWORD);
    expect(await verifyPassword(PASSWORD, fromWasmtime)).toBe(true);
    expect(await verifyPassword('another password', fromWasmtime)).toBe(false);
  });

  it('hashes a non-ASCII password in its NFKC form: é composed or decomposed and full-width letters cross between the hosts', async () => {
    const composed = 'cl\u00e9 ｆｕｌｌ-width staple';
    const decomposed = 'cle\u0301 ｆｕｌｌ-width staple';
    const folded = 'cl\u00e9 full-width staple';
    const fromWasmtime = await hash(decomposed);
    expect(fromWasmtime).toMatch(PHC);
    for (const form of [composed, decomposed, folded]) expect(await verifyPassword(form, fromWasmtime), form).toBe(true);
    expect(await verifyPassword('cle full-width staple', fromWasmtime)).toBe(false);
    const fromNode = await hashPassword(composed);
    for (const form of [composed, decomposed, folded]) expect(await verify(form, fromNode), form).toEqual({ status: 200, value: true });
    expect(await verify('cle full-width staple', fromNode)).toEqual({ status: 200, value: false });
  });

  it('refuses a password the bundled tables cannot normalize exactly as invalid instead of hashing it differently from the Node host', async () => {
    expect(await call('/hash', { password: 'correct horse \u07fd battery' })).toEqual({ status: 422, error: 'invalid' });
    expect(await call('/hash', { password: 'unassigned \u0378 here' })).toEqual({ status: 422, error: 'invalid' });
  });
});
