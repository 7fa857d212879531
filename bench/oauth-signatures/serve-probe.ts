/**
 * For the benchmark: serves a probe component through the real Node host pieces (WASI imports, instance
 * pool, HTTP server with JSPI), plus any extra imports (the benchmark's host signatures).
 */
import { join } from 'node:path';
import { loadComponent } from '../../host/guest/component.ts';
import { loadConfig } from '../../host/config.ts';
import { guestEnvironment } from '../../host/guest/guest-env.ts';
import { hostImports } from '../../host/guest/imports.ts';
import { jsonLogger } from '../../host/log.ts';
import { Scrubber } from '../../host/storage/scrubber.ts';
import { MailOutbox } from '../../host/mail/outbox.ts';
import { laneQueues } from '../../host/admission/wait-queue.ts';
import { InstancePool } from '../../host/guest/pool.ts';
import { localPubSub } from '../../host/pubsub/local.ts';
import { startServer } from '../../host/http/server.ts';
import { openStorage } from '../../host/storage/open.ts';
import { freePort, tempDataDir } from '../../harness/host-process.ts';

export interface ServedProbe {
  url: string;
  logs: string[];
  stop(): Promise<void>;
}

export async function serveProbe(transpiledDir: string, extraImports: Record<string, unknown> = {}): Promise<ServedProbe> {
  const logs: string[] = [];
  const logger = jsonLogger((line) => logs.push(line));
  const port = await freePort();
  const config = loadConfig(['--port', String(port), '--data-dir', join(tempDataDir('oauth-probe-')), '--instances-min', '1'], {});
  const storage = await openStorage(config, logger);
  const pubsub = localPubSub();
  const imports = {
    ...hostImports({
      environment: guestEnvironment(config, {}),
      storage,
      pubsub,
      logger,
      mail: { outbox: new MailOutbox(storage.projections), queued: () => {} },
      scrubber: new Scrubber(storage, logger),
    }),
    ...extraImports,
  };
  const component = await loadComponent(transpiledDir);
  const pool = new InstancePool(() => component.instantiate(imports), { min: 1, max: 4, queues: laneQueues() }, logger);
  await pool.warm();
  const server = await startServer(pool, logger, { port, host: '127.0.0.1' });
  return {
    url: `http://127.0.0.1:${server.port}`,
    logs,
    async stop() {
      await server.close(1000);
      await pubsub.close();
      await storage.close();
    },
  };
}
