/**
 * An API operation as data, declared by each feature beside the routes that serve it (in the
 * manner of `describeRoute` in hono-openapi, without a middleware in the route's chain: the
 * declaration costs the request nothing). src/openapi/ assembles the features' contracts into the
 * OpenAPI document; src/openapi/route-coverage.unit.test.ts walks the app's registered routes and
 * fails on a route without an operation or an operation without a route.
 */
import type { Env, Hono } from 'hono';
import type * as v from 'valibot';
import type { AppErrorCode } from '../errors.ts';
import type { Logger } from '../platform/ports.ts';
import { methodNotAllowedResponse } from './errors.ts';

export type Tag = 'counter' | 'server functions' | 'auth' | 'oauth' | 'admin' | 'service';

export interface ParameterSpec {
  name: string;
  in: 'query' | 'header' | 'path' | 'cookie';
  required?: boolean;
  description: string;
  schema: v.GenericSchema;
}

/** Response headers by role; a trailing `?` marks one the answer may leave out. */
export type HeaderName = `${'Location' | 'Set-Cookie' | 'Set-Cookie-Cleared' | 'Set-Cookie-Binding' | 'ETag'}${'' | '?'}`;

/** A success answer: a named component schema, SSE text, HTML, a redirect, or no body. */
export type SuccessSpec =
  | { kind: 'json'; schema: string; description: string; headers?: HeaderName[]; example?: unknown }
  | {
      kind: 'sse';
      description: string;
      /** each SSE event name and the component schema of its `data` (JSON) */
      events: Record<string, string>;
      /** what the `id:` field holds */
      id?: { pattern: string; description: string };
      example: string;
    }
  | { kind: 'html'; description: string }
  | { kind: 'redirect'; description: string; headers: HeaderName[] }
  | { kind: 'empty'; description: string; headers?: HeaderName[] };

export interface LinkSpec {
  operationId: string;
  description: string;
  parameters?: Record<string, string>;
  requestBody?: Record<string, string>;
}

export interface OperationSpec {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** OpenAPI's form: `/api/auth/sessions/{id}` (routerPath gives Hono's `:id`) */
  path: string;
  operationId: string;
  tag: Tag;
  summary: string;
  description?: string;
  parameters?: ParameterSpec[];
  /**
   * named component schema of the body, its media types, and the schema the route parses the body
   * with: the published one derives from it (the same fields, what the route checks after parsing
   * stated), and src/openapi/body-schemas.unit.test.ts holds their fields equal
   */
  body?: { schema: string; parsedWith: v.GenericSchema; mediaTypes: readonly string[]; required: boolean };
  success: Record<string, SuccessSpec>;
  errors: readonly AppErrorCode[];
  /** errors (of these statuses, else all) that may also be answered as an HTML page, and when */
  htmlErrors?: { description: string; statuses?: readonly number[] };
  /** `session`: a session cookie is read (optional unless `unauthorized` is among the errors); `operator`: a bearer token */
  security?: 'operator' | 'session';
  links?: Record<string, LinkSpec>;
}

/** What a feature publishes: its operations and the component schemas they name. */
export interface ApiContract {
  /** component schemas by name (`body.schema`, a json success's `schema`), and any they contain */
  schemas?: Readonly<Record<string, v.GenericSchema>>;
  operations: readonly OperationSpec[];
  /** a request example per body schema name (Schemathesis sends examples first) */
  requestExamples?: Readonly<Record<string, unknown>>;
  /** `/api/` routes deliberately left out of the document, each with the reason (a host-only route) */
  unpublished?: readonly { path: string; reason: string }[];
}

export const JSON_ONLY = ['application/json'] as const;

/** `/api/auth/sessions/{id}` → `/api/auth/sessions/:id`: an OpenAPI path as Hono registers it. */
export function routerPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

/** The methods the operations of `path` take, as `Allow` lists them (HEAD wherever GET is). */
export function allowedMethods(operations: readonly OperationSpec[], path: string): string[] {
  const methods = operations.filter((op) => op.path === path).map((op) => op.method.toUpperCase());
  return methods.includes('GET') ? [...methods, 'HEAD'] : methods;
}

/**
 * 405 `method_not_allowed` with `Allow` on each path of `operations`, for the methods their routes
 * do not take. Register after the routes: Hono tries routes in the order they were added.
 */
export function refuseOtherMethods<E extends Env>(app: Hono<E>, operations: readonly OperationSpec[], logger?: Logger): void {
  for (const path of new Set(operations.map((op) => op.path))) {
    const allowed = allowedMethods(operations, path);
    app.all(routerPath(path), (c) => methodNotAllowedResponse(c, allowed, logger));
  }
}
