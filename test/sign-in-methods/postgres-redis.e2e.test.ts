/**
 * Managing sign-in methods (./suite.ts) on the Node host with PostgreSQL and with Redis (a schema
 * and a key prefix of this process's own), mail through a real SMTP server (aiosmtpd): the rule's
 * reads (the email stream, the identities, the passkey list), the one-change-at-a-time counter
 * (key-value increment with a lifetime) and the removals behave as on SQLite.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { inCi, isolation, POSTGRES_URL, REDIS_URL, sharedServers } from '../../harness/servers.ts';
import { requireTool } from '../../harness/tools.ts';
import { startMailingHost } from '../support/mailing-host.ts';
import { startedForSuite } from '../support/started-for-suite.ts';
import { signInMethodsSuite } from './suite.ts';

const python = requireTool('aiosmtpd');
const unavailable = await sharedServers();
if (unavailable !== undefined && inCi) it('needs PostgreSQL and Redis under CI', () => expect.fail(unavailable));

const servers = isolation('methods');
afterAll(() => servers.cleanup());
const schema = servers.schema();
const prefix = servers.prefix();
const BACKENDS = [
  { name: 'postgres', args: ['--db', 'postgres', '--postgres-url', POSTGRES_URL, '--postgres-schema', schema, '--realtime', 'local'] },
  { name: 'redis', args: ['--db', 'redis', '--redis-url', REDIS_URL, '--redis-prefix', prefix, '--realtime', 'local'] },
];

describe.runIf(unavailable === undefined && python !== undefined).each(BACKENDS)('sign-in methods on the Node host ($name)', (backend) => {
  signInMethodsSuite(startedForSuite(() => startMailingHost(python!, { args: backend.args, env: { AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE: '1000' } }), 60_000));
});
