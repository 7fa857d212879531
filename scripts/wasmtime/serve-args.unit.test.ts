/** The `wasmtime serve` command line tells the guest whether it listens on loopback only, as the Node host does, and never that a client address header is trustworthy. */
import { describe, expect, it } from 'vitest';
import type { LaunchConfig } from './options.ts';
import { wasmtimeServeArgs } from './serve-args.ts';

const config: Omit<LaunchConfig, 'host'> = { port: 8080, dataDir: '/tmp/data', transport: 'http', realtime: 'polling', instanceReuse: 1 };
const loopbackEnv = (host: string) => {
  const args = wasmtimeServeArgs({ ...config, host }, 'app.wasm', {});
  return args.filter((arg, i) => args[i - 1] === '--env' && arg.startsWith('APP_LISTEN_LOOPBACK_ONLY='));
};

describe('wasmtimeServeArgs()', () => {
  // Found by Schemathesis under wasmtime: without it the guest refused AUTH_OAUTH_DEVELOPMENT_CALLBACK_BYPASS on 127.0.0.1 (500 on every route).
  it('passes APP_LISTEN_LOOPBACK_ONLY=true on a loopback --addr, false on a wildcard one', () => {
    expect(loopbackEnv('127.0.0.1')).toEqual(['APP_LISTEN_LOOPBACK_ONLY=true']);
    expect(loopbackEnv('0.0.0.0')).toEqual(['APP_LISTEN_LOOPBACK_ONLY=false']);
  });

  // wasmtime serve sets no x-app-client-address: a client could send its own, so the guest must not
  // be told to trust it, whatever the launcher's environment holds (src/http/client-address.ts).
  it('never tells the guest to trust x-app-client-address, nor lets it inherit the whole environment', () => {
    const env = { APP_CLIENT_ADDRESS_HEADER: 'trusted', AUTH_LOGIN_MAX_FAILURES: '3', MAIL_DEAD_LETTER_RETENTION_SECONDS: '0', SMTP_PASSWORD: 'hunter2' };
    const args = wasmtimeServeArgs({ ...config, host: '127.0.0.1' }, 'app.wasm', env);
    expect(args.filter((arg) => /APP_CLIENT_ADDRESS_HEADER|inherit-env/.test(arg))).toEqual([]);
    expect(args.filter((arg, i) => args[i - 1] === '--env' && !arg.includes('='))).toEqual(['AUTH_LOGIN_MAX_FAILURES', 'MAIL_DEAD_LETTER_RETENTION_SECONDS']);
  });
});
