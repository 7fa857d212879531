/**
 * One worker thread of a host started with --workers N: a whole host (its own storage
 * connection, guest instances, stream relay and HTTP server) listening with SO_REUSEPORT on the
 * port all workers share. It tells the main thread when it is ready and when it has stopped.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startHost } from '../app.ts';
import { ConfigError } from '../config.ts';
import { describeError, jsonLogger, type HostLogger } from '../log.ts';
import { threadPubSub } from '../pubsub/threads.ts';
import type { ToMain, ToWorker, WorkerStart } from './messages.ts';

const start = workerData as WorkerStart;
const port = parentPort!;
const send = (message: ToMain) => port.postMessage(message);
const base = jsonLogger();
const logger: HostLogger = { log: (level, msg, fields) => base.log(level, msg, { worker: start.index, ...fields }) };

try {
  const pubsub = start.config.realtime === 'local' ? threadPubSub(start.channel) : undefined;
  const host = await startHost(start.config, start.env, logger, { pubsub, reusePort: true, thread: String(start.index), processShare: 1 / start.threads });
  port.on('message', (message: ToWorker) => {
    if (message.type === 'metrics') {
      void (host.metrics?.registry.getMetricsAsJSON() ?? Promise.resolve([]))
        .catch((error: unknown) => {
          logger.log('error', 'collecting metrics failed', { code: 'metrics_failed', error: describeError(error) });
          return [];
        })
        .then((metrics) => send({ type: 'metrics', id: message.id, metrics }));
      return;
    }
    if (message.type === 'readiness') {
      void host.readiness.report().then((report) => send({ type: 'readiness', id: message.id, report }));
      return;
    }
    host
      .stop()
      .catch((error: unknown) => logger.log('error', 'worker shutdown failed', { code: 'host_stop_failed', error: describeError(error) }))
      .finally(() => {
        send({ type: 'stopped', runs: host.pool.stats.runs });
        port.close();
      });
  });
  send({ type: 'ready', port: host.port, features: [...host.features] });
} catch (error) {
  send({ type: 'failed', message: describeError(error), configError: error instanceof ConfigError });
  port.close();
}
