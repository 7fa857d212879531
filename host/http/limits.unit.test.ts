/** The time-limit options: defaults, flags over variables, 0 (never), bad values, and what they set on the HTTP/1.1 server. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { DEFAULT_HTTP_LIMITS, http1ServerOptions, httpLimits } from './limits.ts';

describe('time-limit options', () => {
  it('defaults to a 20 s head, 30 s body, 5 s keep-alive, 60 s HTTP/2 idle and 30 s send limit', () => {
    expect(httpLimits(loadConfig([], {}))).toEqual({
      headTimeoutMs: 20_000,
      bodyTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      http2IdleTimeoutMs: 60_000,
      sendTimeoutMs: 30_000,
    });
    expect(DEFAULT_HTTP_LIMITS).toEqual(httpLimits(loadConfig([], {})));
  });

  it('takes a flag over its variable, and 0 (never)', () => {
    const config = loadConfig(['--head-timeout-seconds', '0', '--send-timeout-seconds=7'], {
      HEAD_TIMEOUT_SECONDS: '9',
      BODY_TIMEOUT_SECONDS: '4',
      HTTP2_IDLE_TIMEOUT_SECONDS: '0',
    });
    expect(httpLimits(config)).toMatchObject({ headTimeoutMs: 0, bodyTimeoutMs: 4_000, http2IdleTimeoutMs: 0, sendTimeoutMs: 7_000 });
  });

  it.each([
    [['--head-timeout-seconds=-1'], {}],
    [['--body-timeout-seconds', '1.5'], {}],
    [[], { KEEPALIVE_TIMEOUT_SECONDS: '5s' }],
    // Past a day: a Node timer beyond 2^31 - 1 ms would fire at once.
    [['--send-timeout-seconds', '86401'], {}],
    [['--http2-idle-timeout-seconds', '99999999999'], {}],
  ])('rejects %j %j naming the option', (argv, env) => {
    expect(() => loadConfig(argv, env)).toThrow(ConfigError);
    expect(() => loadConfig(argv, env)).toThrow(/--[a-z0-9-]+-timeout-seconds \([A-Z0-9_]+_TIMEOUT_SECONDS\).*whole seconds 0-86400/);
  });

  it("sets Node's head, request and keep-alive limits, the request limit covering head and body", () => {
    expect(http1ServerOptions(DEFAULT_HTTP_LIMITS)).toEqual({
      headersTimeout: 20_000,
      requestTimeout: 50_000,
      keepAliveTimeout: 5_000,
      connectionsCheckingInterval: 1_000,
    });
    expect(http1ServerOptions({ ...DEFAULT_HTTP_LIMITS, bodyTimeoutMs: 0 }).requestTimeout).toBe(0);
  });
});
