/**
 * The Node host started inside the benchmark's own process, for the benchmarks that read its
 * instance pool directly (guest linear memory, instances retired): the same start-up as
 * host/main.ts with a free port, a temporary data directory and its logs dropped.
 */
import { startHost, type RunningHost } from '../../host/app.ts';
import { loadConfig } from '../../host/config.ts';
import { jsonLogger } from '../../host/log.ts';
import { tempDataDir } from '../../harness/host-process.ts';

/** Starts a host with the command-line flags `args` (besides port and data directory); the environment is this process's. */
export function startInProcessHost(args: readonly string[]): Promise<RunningHost> {
  const config = loadConfig(['--port', '0', '--data-dir', tempDataDir(), ...args], process.env);
  return startHost(
    config,
    process.env,
    jsonLogger(() => undefined),
  );
}
