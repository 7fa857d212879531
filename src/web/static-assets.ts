/**
 * Static files under `/pkg/<name>.<hash>.<ext>`, served from a table embedded in the component at
 * build time (scripts/static-assets.ts generates it from static/), so they work on every host,
 * `wasmtime serve` included: no filesystem at runtime. A content hash in every file name lets
 * browsers keep them for a year; unknown files get the 404 error envelope.
 */
import { Hono } from 'hono';
import { AppError } from '../errors.ts';
import type { Logger } from '../platform/ports.ts';
import { errorResponse } from '../http/errors.ts';
import { IMMUTABLE_SURROGATE_HEADERS } from '../http/surrogate.ts';

const STATIC_PREFIX = '/pkg';

/** Immutable: a changed file gets a new name. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

export interface StaticAsset {
  /** source name, e.g. `app.js` (what the page asks for) */
  name: string;
  /** served file name with the content hash, e.g. `app.3f9c0a1b2d4e.js` */
  file: string;
  /** the hex content hash in `file` */
  hash: string;
  contentType: string;
  /** text assets are embedded as text, binary ones as base64 */
  encoding: 'utf8' | 'base64';
  data: string;
}

/** The URL of an asset by source name; a missing asset is a build fault. */
export function assetUrl(assets: readonly StaticAsset[], name: string): string {
  const asset = assets.find((a) => a.name === name);
  if (!asset) throw new AppError('configuration', undefined, { cause: new Error(`static asset ${name} is not embedded`) });
  return `${STATIC_PREFIX}/${asset.file}`;
}

function decodeBase64(data: string): Uint8Array<ArrayBuffer> {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** `GET /pkg/:file` (HEAD follows GET). Binary bodies are decoded once, on first request. */
export function staticAssetRoutes(assets: readonly StaticAsset[], logger: Logger): Hono {
  const byFile = new Map(assets.map((asset) => [asset.file, asset]));
  const decoded = new Map<string, Uint8Array<ArrayBuffer>>();
  const bodyOf = (asset: StaticAsset): string | Uint8Array<ArrayBuffer> => {
    if (asset.encoding === 'utf8') return asset.data;
    let bytes = decoded.get(asset.file);
    if (!bytes) decoded.set(asset.file, (bytes = decodeBase64(asset.data)));
    return bytes;
  };

  const app = new Hono();
  app.get(`${STATIC_PREFIX}/:file`, (c) => {
    const asset = byFile.get(c.req.param('file'));
    if (!asset) return errorResponse(c, new AppError('not_found', 'no such static file'), logger);
    return c.body(bodyOf(asset), 200, {
      'Content-Type': asset.contentType,
      'Cache-Control': IMMUTABLE_CACHE,
      ETag: `"${asset.hash}"`,
      'X-Content-Type-Options': 'nosniff',
      ...IMMUTABLE_SURROGATE_HEADERS,
    });
  });
  return app;
}
