import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../config.ts';
import { AppError } from '../../errors.ts';
import { GRPC_NEEDS_NODE_HOST, standaloneConfig } from './runtime-config.ts';

const config = (env: Record<string, string>) => parseConfig(Object.entries({ APP_RUNTIME: 'wasmtime', APP_GRPC_SUPPORTED: 'false', ...env }));

describe('standaloneConfig', () => {
  it.each(['grpc', 'both'])('refuses transport %s with a configuration error naming the Node host', (transport) => {
    let error: unknown;
    try {
      standaloneConfig(config({ TRANSPORT: transport }));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('configuration');
    expect((error as AppError).message).toBe(GRPC_NEEDS_NODE_HOST);
    expect(GRPC_NEEDS_NODE_HOST).toMatch(/Node host/);
  });

  it.each([
    ['local', 'polling'],
    ['redis', 'polling'],
    ['polling', 'polling'],
    ['off', 'off'],
  ])('realtime %s runs as %s (no pub/sub between per-request instances)', (requested, effective) => {
    expect(standaloneConfig(config({ REALTIME: requested })).realtime).toBe(effective);
  });

  it('keeps http as it is', () => {
    expect(standaloneConfig(config({ TRANSPORT: 'http' })).transport).toBe('http');
  });
});
