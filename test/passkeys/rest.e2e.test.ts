/** The passkey ceremonies and their attacks (./ceremony-suite.ts) against the Node host on SQLite, mail through a real SMTP server (aiosmtpd). */
import { describe } from 'vitest';
import { requireTool } from '../../harness/tools.ts';
import { startMailingHost } from '../support/mailing-host.ts';
import { startedForSuite } from '../support/started-for-suite.ts';
import { passkeyCeremonySuite } from './ceremony-suite.ts';

const python = requireTool('aiosmtpd');

describe.skipIf(!python)('passkeys on the Node host', () => {
  passkeyCeremonySuite(startedForSuite(() => startMailingHost(python!, { env: { AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE: '1000' } }), 60_000));
});
