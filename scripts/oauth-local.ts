/**
 * `npm run oauth:local`: the service with OAuth on against the suites' local provider
 * (test/support/oauth-provider/), for trying the three sign-ins by hand. The provider approves
 * its test user at once. Extra arguments go to the host (e.g. `-- --db postgres --postgres-url postgres://127.0.0.1:5432/test`).
 * Port: PORT (default 3000). The provider listens on a free loopback port.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startOAuthFixture } from '../test/support/oauth-provider/fixture.ts';

const port = Number(process.env.PORT ?? 3000);
const base = `http://127.0.0.1:${port}`;
const fixture = await startOAuthFixture(base);
console.error(`local OAuth provider on ${fixture.provider.url}; sign in at ${base}/login`);
const host = spawn(process.execPath, [join(import.meta.dirname, '..', 'host', 'main.ts'), '--port', String(port), ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, ...fixture.env },
});
const stop = (signal: NodeJS.Signals) => host.kill(signal);
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
host.once('exit', (code) => {
  void fixture.provider.stop().then(() => process.exit(code ?? 1));
});
