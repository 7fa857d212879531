/** The operations listener's Host allowlist: IP literals, localhost and configured names only. */
import { describe, expect, it } from 'vitest';
import { hostAllowlist, hostName } from './host-header.ts';

describe('hostName()', () => {
  it.each([
    ['127.0.0.1:9464', '127.0.0.1'],
    ['[::1]:9464', '::1'],
    ['LocalHost.', 'localhost'],
    ['metrics.internal', 'metrics.internal'],
  ])('%s → %s', (host, name) => {
    expect(hostName(host)).toBe(name);
  });

  it.each(['', '[::1', '::1', 'a:b:c', 'h:99999', 'a/b:1'])('malformed %j', (host) => {
    expect(hostName(host)).toBeUndefined();
  });
});

describe('hostAllowlist()', () => {
  const allowed = hostAllowlist(['0.0.0.0', 'metrics.internal']);

  it.each(['127.0.0.1:9464', '127.9.9.9', '[::1]:9464', 'localhost:9464', '10.1.2.3:9464', 'Metrics.Internal:9464', undefined])('answers %s', (host) => {
    expect(allowed(host)).toBe(true);
  });

  it.each(['evil.example', 'evil.example:9464', 'localhost.evil.example', '127.0.0.1.evil.example', 'metrics.internal.evil.example', '[evil]'])('refuses %s', (host) => {
    expect(allowed(host)).toBe(false);
  });
});
