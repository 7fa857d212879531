/** The safety-net options (--instance-max-requests, --instance-max-memory, --instance-idle-seconds): defaults, flags, variables, bad values. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig() instance retirement options', () => {
  it('defaults to 10,000 exchanges, 64 MiB and 60 idle seconds', () => {
    expect(loadConfig([], {})).toMatchObject({ instanceMaxRequests: 10_000, instanceMaxMemoryMiB: 64, instanceIdleSeconds: 60 });
  });

  it('takes a flag over its variable, and 0 (never)', () => {
    const config = loadConfig(['--instance-max-requests', '0'], { INSTANCE_MAX_REQUESTS: '50', INSTANCE_MAX_MEMORY: '96' });
    expect(config).toMatchObject({ instanceMaxRequests: 0, instanceMaxMemoryMiB: 96 });
  });

  it.each([
    [['--instance-max-requests=-1'], {}],
    [['--instance-max-memory', '1.5'], {}],
    [[], { INSTANCE_MAX_MEMORY: '256MiB' }],
    [['--instance-idle-seconds=-5'], {}],
  ])('rejects %j %j naming the option', (argv, env) => {
    expect(() => loadConfig(argv, env)).toThrow(ConfigError);
    expect(() => loadConfig(argv, env)).toThrow(/--instance-(max-requests|max-memory|idle-seconds) \(INSTANCE_(MAX_REQUESTS|MAX_MEMORY|IDLE_SECONDS)\).*a non-negative integer/);
  });
});

describe('loadConfig() operations listener options', () => {
  it('is off by default, and binds loopback when on', () => {
    expect(loadConfig([], {})).toMatchObject({ metricsPort: undefined, metricsHost: '127.0.0.1' });
    expect(loadConfig([], { METRICS_PORT: '9464' })).toMatchObject({ metricsPort: 9464, metricsHost: '127.0.0.1' });
  });

  it('takes a flag over its variable, `off`, and another interface', () => {
    expect(loadConfig(['--metrics-port', 'off'], { METRICS_PORT: '9464' })).toMatchObject({ metricsPort: undefined });
    expect(loadConfig(['--metrics-port', '0', '--metrics-host', '0.0.0.0'], { METRICS_HOST: '::1' })).toMatchObject({ metricsPort: 0, metricsHost: '0.0.0.0' });
  });

  it.each([
    [['--metrics-port', 'on'], {}],
    [['--metrics-port', '70000'], {}],
    [[], { METRICS_PORT: '-1' }],
  ])('rejects %j %j naming the option', (argv, env) => {
    expect(() => loadConfig(argv, env)).toThrow(/--metrics-port \(METRICS_PORT\).*off or a port number 0-65535/);
  });

  it('rejects an empty --metrics-host and the service port', () => {
    expect(() => loadConfig([], { METRICS_HOST: '' })).toThrow(/--metrics-host \(METRICS_HOST\).*a non-empty value/);
    expect(() => loadConfig(['--port', '4000', '--metrics-port', '4000'], {})).toThrow(/--metrics-port \(METRICS_PORT\): must differ from --port/);
  });
});

describe('loadConfig() --trusted-proxies and --metrics-allowed-hosts', () => {
  it('trusts no proxy and allows no extra host name by default', () => {
    expect(loadConfig([], {})).toMatchObject({ trustedProxies: [], metricsAllowedHosts: [] });
  });

  it('takes comma-separated IPv4 and IPv6 ranges and bare addresses, a flag over its variable', () => {
    expect(loadConfig([], { TRUSTED_PROXIES: '127.0.0.1/32, 10.0.0.0/8,fd00::/8,::1' })).toMatchObject({ trustedProxies: ['127.0.0.1/32', '10.0.0.0/8', 'fd00::/8', '::1'] });
    expect(loadConfig(['--trusted-proxies', 'none'], { TRUSTED_PROXIES: '10.0.0.0/8' })).toMatchObject({ trustedProxies: [] });
    expect(loadConfig(['--metrics-allowed-hosts', 'Metrics.Internal,app-1'], {})).toMatchObject({ metricsAllowedHosts: ['metrics.internal', 'app-1'] });
  });

  it.each([['10.0.0.0/33'], ['10.0.0.0/8,'], ['proxy.internal'], ['fd00::/129'], ['10.0.0.1/8/8'], [''], ['fe80::1%eth0/128'], ['127.0.0.1/-1']])(
    'rejects --trusted-proxies %j naming the option',
    (value) => {
      expect(() => loadConfig(['--trusted-proxies', value], {})).toThrow(ConfigError);
      expect(() => loadConfig([], { TRUSTED_PROXIES: value })).toThrow(
        /--trusted-proxies \(TRUSTED_PROXIES\) from TRUSTED_PROXIES: expected none or comma-separated IPv4\/IPv6 addresses or CIDR ranges/,
      );
    },
  );

  it.each([['evil example'], ['a..b'], ['-a'], ['']])('rejects --metrics-allowed-hosts %j naming the option', (value) => {
    expect(() => loadConfig([], { METRICS_ALLOWED_HOSTS: value })).toThrow(/--metrics-allowed-hosts \(METRICS_ALLOWED_HOSTS\).*host names/);
  });
});

const PG = ['--postgres-url', 'postgres://db.internal:5432/counter'];
const REDIS = { REDIS_URL: 'redis://cache.internal:6379' };

describe('--realtime', () => {
  it('follows the store by default, so hosts sharing it share live updates', () => {
    expect(loadConfig([], {}).realtime).toBe('local');
    expect(loadConfig(['--db', 'postgres', ...PG], {}).realtime).toBe('postgres');
    expect(loadConfig([], { DB: 'redis', ...REDIS }).realtime).toBe('redis');
  });

  it('keeps an explicit mode, whatever the store', () => {
    expect(loadConfig(['--db', 'postgres', '--realtime', 'local', ...PG], {}).realtime).toBe('local');
    expect(loadConfig(['--db', 'postgres', ...PG], { REALTIME: 'redis', ...REDIS }).realtime).toBe('redis');
  });
});

describe('--postgres-url and --redis-url: no default server', () => {
  it('are unset by default, and a SQLite host needs neither', () => {
    expect(loadConfig([], {})).toMatchObject({ db: 'sqlite', postgresUrl: undefined, redisUrl: undefined });
  });

  it.each([
    [['--db', 'postgres'], {}, /^--db postgres needs --postgres-url \(POSTGRES_URL\)/],
    [[], { DB: 'redis' }, /^--db redis needs --redis-url \(REDIS_URL\)/],
    [['--realtime', 'postgres'], {}, /^--realtime postgres needs --postgres-url \(POSTGRES_URL\)/],
    [['--db', 'redis', '--realtime', 'redis'], {}, /^--db redis needs --redis-url \(REDIS_URL\)/],
    [['--db', 'postgres', ...PG, '--realtime', 'redis'], {}, /^--realtime redis needs --redis-url/],
  ] as Array<[string[], Record<string, string>, RegExp]>)('%j %j is refused naming the URL option', (argv, env, message) => {
    expect(() => loadConfig(argv, env)).toThrow(ConfigError);
    expect(() => loadConfig(argv, env)).toThrow(message);
  });

  it("'none' is the same as unset", () => {
    expect(() => loadConfig(['--db', 'postgres', '--postgres-url', 'none'], {})).toThrow(/needs --postgres-url/);
  });
});

describe('loadConfig() --body-piece-rate', () => {
  it('defaults to 4,096 pieces a second; a flag wins over its variable; 0 turns it off', () => {
    expect(loadConfig([], {})).toMatchObject({ bodyPieceRate: 4096 });
    expect(loadConfig([], { BODY_PIECE_RATE: '16384' })).toMatchObject({ bodyPieceRate: 16_384 });
    expect(loadConfig(['--body-piece-rate', '0'], { BODY_PIECE_RATE: '16384' })).toMatchObject({ bodyPieceRate: 0 });
  });

  it.each([
    [['--body-piece-rate=-1'], {}],
    [['--body-piece-rate', '4k'], {}],
    [[], { BODY_PIECE_RATE: '1.5' }],
    [[], { BODY_PIECE_RATE: 'off' }],
  ])('rejects %j %j naming the option', (argv, env) => {
    expect(() => loadConfig(argv, env)).toThrow(ConfigError);
    expect(() => loadConfig(argv, env)).toThrow(/--body-piece-rate \(BODY_PIECE_RATE\).*a non-negative integer/);
  });
});
