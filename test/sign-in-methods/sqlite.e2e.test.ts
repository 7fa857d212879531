/** Managing sign-in methods (./suite.ts) on the Node host with SQLite, mail through a real SMTP server (aiosmtpd). */
import { describe } from 'vitest';
import { requireTool } from '../../harness/tools.ts';
import { startMailingHost } from '../support/mailing-host.ts';
import { startedForSuite } from '../support/started-for-suite.ts';
import { signInMethodsSuite } from './suite.ts';

const python = requireTool('aiosmtpd');

describe.skipIf(!python)('sign-in methods on the Node host (SQLite)', () => {
  signInMethodsSuite(startedForSuite(() => startMailingHost(python!, { env: { AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE: '1000' } }), 60_000));
});
