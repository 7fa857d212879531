/**
 * `POST /api/internal/maintenance`: the Node host's maintenance pass (host/maintenance/). It
 * exists only for a request carrying `x-app-maintenance` equal to APP_MAINTENANCE_TOKEN, a value
 * the host makes at start and gives no one else; the host also drops that header from every
 * client request. Anyone else gets the 404 of a path that does not exist. Not in the OpenAPI
 * document: it is no part of the public API.
 */
import { Hono } from 'hono';
import { notFoundResponse } from '../http/errors.ts';
import { timingSafeEqual } from '../auth/oauth/random-tokens.ts';
import { MAINTENANCE_HEADER, MAINTENANCE_PATH } from '../contract/headers.ts';
import type { Logger } from '../platform/ports.ts';
import type { MaintenanceReport } from './pass.ts';
import type { ApiContract } from '../http/operation.ts';

/** No operation: the route is the host's, not the API's (the document says nothing of it). */
export const MAINTENANCE_CONTRACT: ApiContract = {
  operations: [],
  unpublished: [{ path: MAINTENANCE_PATH, reason: "the Node host's maintenance pass; any other caller gets the 404 of a path that does not exist" }],
};

export function maintenanceRoutes(token: string | undefined, pass: () => MaintenanceReport, logger: Logger): Hono {
  const app = new Hono();
  app.all(MAINTENANCE_PATH, (c) => {
    const presented = c.req.header(MAINTENANCE_HEADER);
    if (token === undefined || presented === undefined || c.req.method !== 'POST' || !timingSafeEqual(presented, token)) return notFoundResponse(c, logger);
    return c.json(pass(), 200, { 'Cache-Control': 'no-store' });
  });
  return app;
}
