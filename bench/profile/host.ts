/**
 * The host `npm run bench -- profile` starts: host/main.ts's start-up (same flags, same listening
 * line, metrics on `--metrics-port`) running the profiling build of the component
 * (build/hosted-profile, `node scripts/build.ts --variant profile`), whose `guest_profile` lines
 * it forwards on stdout as it forwards every guest log line.
 */
import { join } from 'node:path';
import { startHost } from '../../host/app.ts';
import { loadConfig } from '../../host/config.ts';
import { jsonLogger } from '../../host/log.ts';
import { startOperationsListener } from '../../host/metrics/listener.ts';
import { hostSource } from '../../host/metrics/source.ts';

/** The profiling build; `PROFILE_COMPONENT_DIR` names another (a copy kept from before a change, to compare). */
export const PROFILE_COMPONENT_DIR = process.env['PROFILE_COMPONENT_DIR'] ?? join(import.meta.dirname, '..', '..', 'build', 'hosted-profile', 'transpiled');

const logger = jsonLogger();
const config = loadConfig(process.argv.slice(2), process.env);
const host = await startHost(config, process.env, logger, { componentDir: PROFILE_COMPONENT_DIR, processShare: 1 });
const operations =
  config.metricsPort === undefined
    ? undefined
    : await startOperationsListener(hostSource(host), { port: config.metricsPort, host: config.metricsHost, allowedHosts: config.metricsAllowedHosts }, logger);
logger.log('info', `listening on http://${config.host}:${host.port}`, { code: 'host_listening', port: host.port, metrics_port: operations?.port });
process.on('SIGTERM', () => {
  void host
    .stop()
    .then(() => operations?.close())
    .finally(() => process.exit(0));
});
