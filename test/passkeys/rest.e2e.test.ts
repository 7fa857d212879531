/** The passkey ceremonies and their attacks (./ceremony-suite.ts) against the Node host on SQLite. */
import { afterAll, beforeAll } from 'vitest';
import { freePort, startHost, type HostProcess } from '../../harness/host-process.ts';
import { passkeyCeremonySuite } from './ceremony-suite.ts';

let host: HostProcess;
let origin: string;

beforeAll(async () => {
  const port = await freePort();
  origin = `http://localhost:${port}`;
  host = await startHost({ port, env: { AUTH_PUBLIC_BASE_URL: origin, AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE: '1000' } });
});
afterAll(async () => {
  await host?.stop();
});

passkeyCeremonySuite(() => ({ url: host.url, origin, logs: () => host.logs() }));
