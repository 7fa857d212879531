import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../host/config.ts';
import { devArguments } from './arguments.ts';

describe('devArguments()', () => {
  it('keeps the port for the dev runner and passes every other option to the host with a port of its own', () => {
    const args = devArguments(['--port', '4000', '--data-dir', './dev-data', '--db=sqlite'], {});
    expect(args.config.port).toBe(4000);
    expect(args.config.dataDir).toBe('./dev-data');
    expect(args.hostArgs(41234)).toEqual(['--data-dir', './dev-data', '--db=sqlite', '--port', '41234']);
  });

  it('drops --port=N too, and the host port flag wins over PORT in the environment', () => {
    const args = devArguments(['--port=4001', '--host', '127.0.0.1'], { PORT: '5000' });
    expect(args.config.port).toBe(4001);
    expect(args.hostArgs(41235)).toEqual(['--host', '127.0.0.1', '--port', '41235']);
    expect(devArguments([], { PORT: '5001' }).config.port).toBe(5001);
  });

  it('reaches a host listening on every interface through loopback, and keeps its interface', () => {
    expect(devArguments(['--host', '0.0.0.0'], {}).connectHost).toBe('127.0.0.1');
    expect(devArguments(['--host', '::'], {}).connectHost).toBe('::1');
    expect(devArguments(['--host', '0.0.0.0'], {}).hostArgs(1)).toContain('0.0.0.0');
    expect(devArguments([], {}).connectHost).toBe('127.0.0.1');
  });

  it('refuses what the host refuses, with its message', () => {
    expect(() => devArguments(['--no-such-option'], {})).toThrow(ConfigError);
    expect(() => devArguments(['--db', 'mysql'], {})).toThrow(/--db \(DB\)/);
  });
});
