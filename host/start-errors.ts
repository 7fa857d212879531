/**
 * Start-up failures that the operator fixes by changing an option, in plain words naming that
 * option: the CLI reports them as configuration errors (exit code 2, one line on stderr).
 */
import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, type HostConfig } from './config.ts';

const FILE_SYSTEM_REASONS: Record<string, string> = {
  ENOTDIR: 'a part of the path is a file, not a directory',
  EEXIST: 'it is a file, not a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
};

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Creates the SQLite data directory if needed; throws ConfigError naming the path and --data-dir when it cannot hold the database. */
export function checkDataDir(config: Pick<HostConfig, 'db' | 'dataDir'>): void {
  if (config.db !== 'sqlite') return;
  const path = resolve(config.dataDir);
  try {
    mkdirSync(path, { recursive: true, mode: 0o700 });
    if (!statSync(path).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'EEXIST' });
    accessSync(path, constants.W_OK | constants.X_OK);
  } catch (error) {
    const code = errorCode(error);
    const reason = (code && FILE_SYSTEM_REASONS[code]) ?? (error instanceof Error ? error.message : String(error));
    throw new ConfigError(`cannot use ${path} as the data directory (--data-dir, DATA_DIR): ${reason}`);
  }
}

/** A listen failure the operator fixes with --port, --metrics-port or --host, as a ConfigError; undefined for anything else. */
export function listenFailure(error: unknown, config: Pick<HostConfig, 'host' | 'port' | 'metricsHost' | 'metricsPort'>): ConfigError | undefined {
  const message = error instanceof Error ? error.message : String(error);
  const code = errorCode(error) ?? /\b(EADDRINUSE|EACCES|EADDRNOTAVAIL)\b/.exec(message)?.[1];
  // Node's listen errors carry the port; through a worker thread only the message does.
  const port = Number((error as { port?: unknown } | null)?.port ?? /:(\d+)$/.exec(message)?.[1]);
  const operations = config.metricsPort !== undefined && port === config.metricsPort && port !== config.port;
  const [portOption, host, hostOption] = operations
    ? ['--metrics-port (METRICS_PORT)', config.metricsHost, '--metrics-host (METRICS_HOST)']
    : ['--port (PORT)', config.host, '--host (HOST)'];
  const shown = operations ? config.metricsPort : config.port;
  switch (code) {
    case 'EADDRINUSE':
      return new ConfigError(`port ${shown} is already in use on ${host}: stop what holds it, or choose another port with ${portOption}`);
    case 'EACCES':
      return new ConfigError(`not allowed to listen on port ${shown} of ${host}: choose a port above 1023 with ${portOption}`);
    case 'EADDRNOTAVAIL':
      return new ConfigError(`cannot listen on ${host}: it is not an address of this machine; choose another with ${hostOption}`);
    default:
      return undefined;
  }
}
