/**
 * The passkey ceremonies and their attacks (./ceremony-suite.ts) under the real `wasmtime serve`
 * (the composed standalone component, file store): @simplewebauthn/server and the pure-JS
 * signatures run in the guest the same way, challenges are taken from the file store's key-value.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { freePort } from '../../harness/host-process.ts';
import { requireTool } from '../../harness/tools.ts';
import { startWasmtime, type WasmtimeProcess } from '../../harness/wasmtime-process.ts';
import { passkeyCeremonySuite } from './ceremony-suite.ts';

const wasmtime = requireTool('wasmtime');

describe.skipIf(!wasmtime)('passkeys under wasmtime serve', () => {
  let server: WasmtimeProcess;
  let origin: string;
  beforeAll(async () => {
    const port = await freePort();
    origin = `http://localhost:${port}`;
    // Every client is `unknown` under wasmtime serve, so the suite's calls share one per-client budget.
    server = await startWasmtime({ port, guestEnv: { AUTH_PUBLIC_BASE_URL: origin, AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE: '1000' } }, wasmtime!.path);
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
  });

  passkeyCeremonySuite(() => ({ url: server.url, origin, logs: () => server.logs() }));
});
