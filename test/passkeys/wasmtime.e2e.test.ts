/**
 * The passkey ceremonies and their attacks (./ceremony-suite.ts) under the real `wasmtime serve`
 * (the composed standalone component, file store): @simplewebauthn/server and the pure-JS
 * signatures run in the guest the same way, challenges are taken from the file store's key-value.
 * The component queues its mail in the file store; `npm run mail:drain` delivers it to a real SMTP
 * server (aiosmtpd) whenever the suite waits for a mail.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { requireTool } from '../../harness/tools.ts';
import { startMailingWasmtime, type MailingWasmtime } from '../support/mailing-wasmtime.ts';
import { passkeyCeremonySuite } from './ceremony-suite.ts';

const wasmtime = requireTool('wasmtime');
const python = requireTool('aiosmtpd');

describe.skipIf(!wasmtime || !python)('passkeys under wasmtime serve', () => {
  let server: MailingWasmtime;
  beforeAll(async () => {
    // Every client is `unknown` under wasmtime serve, so the suite's calls share one per-client budget.
    server = await startMailingWasmtime(wasmtime!, python!, { guestEnv: { AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE: '1000' } });
  }, 600_000);
  afterAll(() => server?.stop());

  passkeyCeremonySuite(() => server);
});
