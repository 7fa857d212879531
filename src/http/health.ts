/**
 * `GET /api/health` (HEAD follows GET): 200 once the configuration is valid. The host probes it at
 * start; its probe request (and only it) gets `onStartupProbe` run, which logs the configuration
 * warnings once.
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { STARTUP_PROBE_HEADER } from '../contract/headers.ts';
import type { Logger } from '../platform/ports.ts';
import { readOnlyRoute } from './errors.ts';
import type { ApiContract } from './operation.ts';

const HEALTH_PATH = '/api/health';

export const HEALTH_CONTRACT: ApiContract = {
  schemas: { Health: v.object({ status: v.literal('ok') }) },
  operations: [
    {
      method: 'get',
      path: HEALTH_PATH,
      operationId: 'getHealth',
      tag: 'service',
      summary: 'Liveness: the configuration is valid',
      success: { '200': { kind: 'json', schema: 'Health', description: 'ok' } },
      errors: ['internal'],
    },
  ],
};

/** `probeToken`: the host's start-up probe token from the guest's environment (absent: no request is the probe). */
export function healthRoutes(probeToken: string | undefined, onStartupProbe: () => void, logger: Logger): Hono {
  const app = new Hono();
  app.all(
    HEALTH_PATH,
    readOnlyRoute((c) => {
      if (probeToken !== undefined && c.req.header(STARTUP_PROBE_HEADER) === probeToken) onStartupProbe();
      return c.json({ status: 'ok' }, 200, { 'Cache-Control': 'no-store' });
    }, logger),
  );
  return app;
}
