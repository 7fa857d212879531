/**
 * The `wasmtime serve` command line for the standalone component, shared by the launcher, the
 * end-to-end tests and the benchmark so all three run it the same way.
 */
import type { LaunchConfig } from './options.ts';
import { isLoopbackAddress } from '../../host/net/cidr.ts';
import { PASSED_TO_GUEST } from '../../src/contract/app-variables.ts';
import { GUEST_ENV } from '../../src/contract/environment.ts';

/** The guest path the data directory is preopened at (src/platform/standalone/platform.ts). */
export const GUEST_DATA_DIR = '/data';

export function wasmtimeServeArgs(config: LaunchConfig, componentPath: string, env: NodeJS.ProcessEnv): string[] {
  const args = [
    'serve',
    '-S',
    'cli=y',
    '--addr',
    `${config.host}:${config.port}`,
    '--dir',
    `${config.dataDir}::${GUEST_DATA_DIR}`,
    '--env',
    `${GUEST_ENV.runtime}=wasmtime`,
    '--env',
    `${GUEST_ENV.grpcSupported}=false`,
    '--env',
    `TRANSPORT=${config.transport}`,
    '--env',
    `REALTIME=${config.realtime}`,
    // wasmtime binds exactly --addr, so the launcher can tell the guest what the Node host tells
    // it (host/guest/guest-env.ts): development-only features (the OAuth callback bypass) require loopback.
    '--env',
    `${GUEST_ENV.listenLoopbackOnly}=${isLoopbackAddress(config.host)}`,
  ];
  // By name only (`--env NAME` inherits the value), so secrets never sit on a command line.
  for (const name of Object.keys(env).sort()) if (PASSED_TO_GUEST.some((re) => re.test(name))) args.push('--env', name);
  if (config.instanceReuse > 1) args.push('--max-instance-reuse-count', String(config.instanceReuse));
  if (componentPath.endsWith('.cwasm')) args.push('--allow-precompiled');
  args.push(componentPath);
  return args;
}
