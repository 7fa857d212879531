/** The safety-net options (--instance-max-requests, --instance-max-memory): defaults, flags, variables, bad values. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig() instance retirement options', () => {
  it('defaults to 10,000 exchanges and 64 MiB', () => {
    expect(loadConfig([], {})).toMatchObject({ instanceMaxRequests: 10_000, instanceMaxMemoryMiB: 64 });
  });

  it('takes a flag over its variable, and 0 (never)', () => {
    const config = loadConfig(['--instance-max-requests', '0'], { INSTANCE_MAX_REQUESTS: '50', INSTANCE_MAX_MEMORY: '96' });
    expect(config).toMatchObject({ instanceMaxRequests: 0, instanceMaxMemoryMiB: 96 });
  });

  it.each([
    [['--instance-max-requests=-1'], {}],
    [['--instance-max-memory', '1.5'], {}],
    [[], { INSTANCE_MAX_MEMORY: '256MiB' }],
  ])('rejects %j %j naming the option', (argv, env) => {
    expect(() => loadConfig(argv, env)).toThrow(ConfigError);
    expect(() => loadConfig(argv, env)).toThrow(/--instance-max-(requests|memory) \(INSTANCE_MAX_(REQUESTS|MEMORY)\).*a non-negative integer/);
  });
});
