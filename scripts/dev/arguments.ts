/**
 * `npm run dev`'s command line is the host's (host/config.ts), validated as the host validates
 * it. The port is the dev runner's own, where the pages are opened; the host behind it gets
 * every other option as given (its interface too, so that it knows whether only this machine
 * can reach it) and a port of its own.
 */
import { parseArgs } from 'node:util';
import { loadConfig, OPTIONS, type HostConfig } from '../../host/config.ts';

export interface DevArguments {
  /** The host's configuration as given (its port is the dev runner's). */
  config: HostConfig;
  /** Where the dev runner reaches the host: its interface, or loopback when it listens on all of them. */
  connectHost: string;
  /** The host's arguments for one start on `port`. */
  hostArgs(port: number): string[];
}

/** Throws the host's ConfigError on an unknown option or a bad value. */
export function devArguments(argv: readonly string[], env: NodeJS.ProcessEnv): DevArguments {
  const config = loadConfig([...argv], env);
  const options = Object.fromEntries(Object.keys(OPTIONS).map((k) => [k, { type: 'string' as const }]));
  const { tokens } = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false, tokens: true });
  const dropped = new Set<number>();
  for (const token of tokens) {
    if (token.kind !== 'option' || token.name !== 'port') continue;
    dropped.add(token.index);
    if (!token.inlineValue) dropped.add(token.index + 1);
  }
  const rest = argv.filter((_, i) => !dropped.has(i));
  const wildcard = config.host === '0.0.0.0' || config.host === '::';
  return {
    config,
    connectHost: config.host === '::' ? '::1' : wildcard ? '127.0.0.1' : config.host,
    // The flag wins over PORT (and .env), as for every host option.
    hostArgs: (port) => [...rest, '--port', String(port)],
  };
}
