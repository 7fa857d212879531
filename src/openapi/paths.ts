/** Where the document is served (routes.ts), and the operations of those two routes. */
import * as v from 'valibot';
import type { ApiContract } from '../http/operation.ts';

export const OPENAPI_PATHS = { document: '/api/openapi.json', reference: '/api/docs' } as const;

export const OPENAPI_CONTRACT: ApiContract = {
  schemas: {
    OpenApiDocument: v.looseObject({ openapi: v.string(), info: v.looseObject({ title: v.string(), version: v.string() }), paths: v.record(v.string(), v.looseObject({})) }),
  },
  operations: [
    {
      method: 'get',
      path: OPENAPI_PATHS.document,
      operationId: 'getOpenApiDocument',
      tag: 'service',
      summary: 'This document',
      success: { '200': { kind: 'json', schema: 'OpenApiDocument', description: 'the OpenAPI 3.1 document (docs/openapi.json)' } },
      errors: ['internal'],
    },
    {
      method: 'get',
      path: OPENAPI_PATHS.reference,
      operationId: 'getApiReference',
      tag: 'service',
      summary: 'This document as a readable page',
      success: { '200': { kind: 'html', description: 'the API reference' } },
      errors: ['internal'],
    },
  ],
};
