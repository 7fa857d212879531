/**
 * The host the memory tests measure: in this process, one guest instance that is never retired,
 * and no response cache (every request must reach the guest), so whatever an exchange leaves
 * behind stays where the test can count it.
 */
import { startHost, type RunningHost } from '../../host/app.ts';
import { loadConfig } from '../../host/config.ts';
import { jsonLogger } from '../../host/log.ts';
import { tempDataDir } from '../../harness/host-process.ts';

export function startOneInstanceHost(extraArgs: string[] = []): Promise<RunningHost> {
  const args = ['--port', '0', '--data-dir', tempDataDir(), '--instances-min', '1', '--instances-max', '1'];
  // The safety net off: it would hide growth. The cache off: it would answer repeated GETs itself.
  // The maintenance timer off: its pass is a guest exchange of its own, counted in the runs a test expects.
  args.push('--instance-max-requests', '0', '--instance-max-memory', '0', '--response-cache', 'off', '--maintenance-interval', '0', '--shutdown-grace-ms', '300', ...extraArgs);
  return startHost(
    loadConfig(args, {}),
    {},
    jsonLogger(() => undefined),
    {},
  );
}
