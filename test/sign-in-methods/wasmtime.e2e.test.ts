/**
 * Managing sign-in methods (./suite.ts) under the real `wasmtime serve` (the composed standalone
 * component, file store): the rule, the re-authentication, the one-change-at-a-time counter in the
 * file store's key-value and the removals run in the guest the same way. The component queues its
 * mail in the file store; `npm run mail:drain` delivers it to a real SMTP server (aiosmtpd)
 * whenever the suite waits for a mail.
 */
import { describe } from 'vitest';
import { requireTool } from '../../harness/tools.ts';
import { startMailingWasmtime } from '../support/mailing-wasmtime.ts';
import { startedForSuite } from '../support/started-for-suite.ts';
import { signInMethodsSuite } from './suite.ts';

const wasmtime = requireTool('wasmtime');
const python = requireTool('aiosmtpd');

describe.skipIf(!wasmtime || !python)('sign-in methods under wasmtime serve', () => {
  // Every client is `unknown` under wasmtime serve, so the suite's calls share one per-client budget.
  const server = startedForSuite(() => startMailingWasmtime(wasmtime!, python!, { guestEnv: { AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE: '1000' } }), 600_000);
  signInMethodsSuite(server);
});
