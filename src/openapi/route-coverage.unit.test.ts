/**
 * The document cannot drift from the routes: every `/api/` route the app registers has an
 * operation in a feature's contract (or is declared unpublished, with its reason), and every
 * operation has a route. Pages and static files (outside `/api/`) are not part of the API.
 */
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { parseConfig } from '../config.ts';
import type { ApiContract } from '../http/operation.ts';
import { createMemoryPlatform } from '../platform/testing/memory-platform.ts';
import { API_CONTRACTS } from './contracts.ts';

interface Route {
  method: string;
  path: string;
}

/** Hono's `:id` (and `:id{pattern}`) as OpenAPI's `{id}`. */
const openApiPath = (path: string) => path.replace(/:([A-Za-z_][A-Za-z0-9_]*)(\{[^}]*\})?/g, '{$1}');

/** What does not match: routes without an operation, operations without a route. */
function coverageProblems(routes: readonly Route[], contracts: readonly ApiContract[]): string[] {
  const operations = contracts.flatMap((contract) => contract.operations);
  const unpublished = new Set(contracts.flatMap((contract) => contract.unpublished ?? []).map((entry) => entry.path));
  const api = routes.filter((route) => route.path.startsWith('/api/')).map((route) => ({ method: route.method, path: openApiPath(route.path) }));
  const problems: string[] = [];
  for (const { method, path } of new Map(api.map((route) => [`${route.method} ${route.path}`, route])).values()) {
    if (unpublished.has(path)) continue;
    // `ALL` is a path's 405 refusal, or a read-only route taking GET and HEAD: the path must be documented.
    const documented = method === 'ALL' ? operations.some((op) => op.path === path) : operations.some((op) => op.path === path && op.method.toUpperCase() === method);
    if (!documented) problems.push(`${method} ${path}: registered without an operation`);
  }
  for (const op of operations) {
    const routed = api.some((route) => route.path === op.path && (route.method === op.method.toUpperCase() || route.method === 'ALL'));
    if (!routed) problems.push(`${op.method.toUpperCase()} ${op.path} (${op.operationId}): an operation without a route`);
  }
  for (const path of unpublished) if (!api.some((route) => route.path === path)) problems.push(`${path}: declared unpublished but not routed`);
  return problems;
}

describe('the API contract against the registered routes', () => {
  // Every optional feature on, so that every route exists.
  const { routes } = buildApp(createMemoryPlatform(), parseConfig([['AUTH_PUBLIC_BASE_URL', 'http://localhost:3000']]));

  it('has an operation for every /api/ route and a route for every operation', () => {
    expect(coverageProblems(routes, API_CONTRACTS)).toEqual([]);
  });

  it('fails for a route registered without an operation (app.get("/api/greeting") in a feature)', () => {
    expect(coverageProblems([...routes, { method: 'GET', path: '/api/greeting' }], API_CONTRACTS)).toEqual(['GET /api/greeting: registered without an operation']);
  });

  it('fails for an operation whose route is gone', () => {
    const ghost: ApiContract = {
      operations: [{ method: 'delete', path: '/api/counter/view', operationId: 'deleteCounter', tag: 'counter', summary: 'x', success: {}, errors: [] }],
    };
    // The view path is routed for every method (its read-only route answers 405 itself), so take the path away.
    const withoutView = routes.filter((route) => route.path !== '/api/counter/view');
    expect(coverageProblems(withoutView, [...API_CONTRACTS, ghost])).toEqual([
      'GET /api/counter/view (getCounterView): an operation without a route',
      'DELETE /api/counter/view (deleteCounter): an operation without a route',
    ]);
  });

  it('finds the parametrised auth routes under their OpenAPI paths', () => {
    expect(routes.map((route) => openApiPath(route.path))).toContain('/api/auth/sessions/{id}');
  });
});
