/**
 * The passkey ceremonies and their attacks (./ceremony-suite.ts) under the real `wasmtime serve`
 * (the composed standalone component, file store): @simplewebauthn/server and the pure-JS
 * signatures run in the guest the same way, challenges are taken from the file store's key-value.
 * The component queues its mail in the file store; `npm run mail:drain` delivers it to a real SMTP
 * server (aiosmtpd) whenever the suite waits for a mail.
 */
import { describe } from 'vitest';
import { requireTool } from '../../harness/tools.ts';
import { startMailingWasmtime } from '../support/mailing-wasmtime.ts';
import { startedForSuite } from '../support/started-for-suite.ts';
import { passkeyCeremonySuite } from './ceremony-suite.ts';

const wasmtime = requireTool('wasmtime');
const python = requireTool('aiosmtpd');

describe.skipIf(!wasmtime || !python)('passkeys under wasmtime serve', () => {
  // Every client is `unknown` under wasmtime serve, so the suite's calls share one per-client budget.
  const server = startedForSuite(() => startMailingWasmtime(wasmtime!, python!, { guestEnv: { AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE: '1000' } }), 600_000);
  passkeyCeremonySuite(server);
});
