import { Hono } from 'hono';
export function providerRoutes(): Hono {
  return new Hono();
}
