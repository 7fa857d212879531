/**
 * `npm start`: the Node host CLI. Exit codes: 0 after a clean shutdown, 1 on a start failure,
 * 2 on anything the operator fixes with an option (a bad option or variable, an unusable data
 * directory, a port in use): one line on stderr naming the option, and a `config_invalid` log line.
 */
import { logClientAddressSource } from './net/client-address.ts';
import { ConfigError, loadConfig } from './config.ts';
import { helpForArguments } from './help.ts';
import { startupSummary, summaryText } from './startup-summary.ts';
import { checkDataDir, listenFailure } from './start-errors.ts';
import { markRunningHost } from './storage/sqlite/running-hosts.ts';
import { startHost } from './app.ts';
import { startWorkerGroup } from './workers/group.ts';
import { loadDotEnv } from './dotenv.ts';
import { describeError, jsonLogger } from './log.ts';
import { createPrivateFiles, warnIfNotPrivate } from './private-files.ts';
import { startOperationsListener, type RunningListener } from './metrics/listener.ts';
import { groupSource, hostSource } from './metrics/source.ts';

// Before anything is created: the data directory and every store file are the service's alone.
createPrivateFiles();
const logger = jsonLogger();
const argv = process.argv.slice(2);
loadDotEnv();
if (argv.includes('--help') || argv.includes('-h')) {
  console.log(helpForArguments(argv, process.env));
  process.exit(0);
}

let config;
try {
  config = loadConfig(argv, process.env);
  checkDataDir(config);
} catch (error) {
  if (error instanceof ConfigError) {
    logger.log('error', error.message, { code: 'config_invalid' });
    process.stderr.write(`error: ${error.message}\n`);
    process.exit(2);
  }
  throw error;
}
// Before the store opens: `npm run restore` refuses a data directory a host is using.
if (config.db === 'sqlite') {
  warnIfNotPrivate(config.dataDir, logger);
  markRunningHost(config.dataDir);
}

if (config.realtime === 'local' && config.db !== 'sqlite') {
  logger.log(
    'warn',
    `--realtime local with --db ${config.db}: writes made through other hosts on this store will not reach this host's live streams (default: --realtime ${config.db})`,
    {
      code: 'realtime_not_shared',
      db: config.db,
    },
  );
}

try {
  const started = performance.now();
  logClientAddressSource(logger, config.trustedProxies, process.env);
  const group =
    config.workers > 1
      ? await startWorkerGroup(config, process.env, logger, (error) => {
          logger.log('error', 'the host stopped because a worker died', { code: 'host_worker_died', error: describeError(error) });
          process.exit(1);
        })
      : undefined;
  const single = group === undefined ? await startHost(config, process.env, logger, { processShare: 1 }) : undefined;
  const host = (group ?? single)!;
  let operations: RunningListener | undefined;
  if (config.metricsPort !== undefined) {
    const source = group ? groupSource(group) : hostSource(single!);
    operations = await startOperationsListener(source, { port: config.metricsPort, host: config.metricsHost, allowedHosts: config.metricsAllowedHosts }, logger);
    logger.log('info', `metrics and probes on http://${config.metricsHost}:${operations.port}`, { code: 'metrics_listening', port: operations.port });
  }
  const summary = startupSummary(config, process.env, host.features);
  logger.log('info', `listening on http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${host.port}; ${summaryText(summary)}`, {
    code: 'host_listening',
    port: host.port,
    db: config.db,
    transport: config.transport,
    realtime: config.realtime,
    workers: config.workers,
    metrics_port: operations?.port,
    startup_ms: Math.round(performance.now() - started),
    summary: Object.fromEntries(summary.map(({ name, state }) => [name, state])),
  });
  /** After the grace period, a second to close storage; then the process exits whatever is still running. */
  const HARD_EXIT_AFTER_GRACE_MS = 1_000;
  let stoppingSince: number | undefined;
  const shutdown = (signal: string) => {
    if (stoppingSince !== undefined) {
      // A second signal: the operator does not want to wait.
      logger.log('warn', 'stopped at once by a second signal', { code: 'host_stop_forced', signal, after_ms: Math.round(performance.now() - stoppingSince) });
      process.exit(1);
    }
    stoppingSince = performance.now();
    logger.log('info', 'shutting down', { code: 'host_stopping', signal });
    // Whatever is in flight (a guest that never returns, a store that never answers), the
    // process is gone within the grace period and a second: supervisors wait about 10 s before SIGKILL.
    setTimeout(() => {
      logger.log('warn', 'exchanges still running after the grace period: exiting without them', {
        code: 'host_stop_forced',
        signal,
        after_ms: Math.round(performance.now() - stoppingSince!),
      });
      process.exit(1);
    }, config.shutdownGraceMs + HARD_EXIT_AFTER_GRACE_MS);
    // Readiness fails from here on (the host's and the group's stop() say so at once);
    // the operations listener stays up until the host has drained, so probers see it.
    host
      .stop()
      .then(() => operations?.close())
      .then(
        () => {
          logger.log('info', 'stopped', { code: 'host_stopped' });
          process.exit(0);
        },
        (error: unknown) => {
          logger.log('error', 'shutdown failed', { code: 'host_stop_failed', error: describeError(error) });
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
} catch (failure) {
  const error = listenFailure(failure, config) ?? failure;
  if (error instanceof ConfigError) {
    logger.log('error', error.message, { code: 'config_invalid' });
    process.stderr.write(`error: ${error.message}\n`);
    process.exit(2);
  }
  logger.log('error', 'the host could not start', { code: 'host_start_failed', error: describeError(error) });
  process.exit(1);
}
