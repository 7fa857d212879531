/**
 * Cache keys. GET and HEAD share entries; the key is the authority, the request target (path and
 * query, exactly as sent) and, per RFC 9110 §12.5.5, the values of the request fields the stored
 * response named in `Vary`. The Vary list is only known from a response, so it is remembered per
 * target (`primaryKey`) and applied to later requests (`variantKey`).
 */

/** The parts of a request the cache looks at (host/response-cache/serve.ts builds it from Node's). */
export interface CacheRequest {
  readonly method: string;
  /** path and query as sent */
  readonly target: string;
  readonly authority: string;
  /** a field's value (several lines joined by ", "), undefined when absent */
  header(name: string): string | undefined;
}

export function primaryKey(req: CacheRequest): string {
  return `${req.authority} ${req.target}`;
}

/** The key of the variant `req` selects under `varyNames` (lower-cased field names). */
export function variantKey(req: CacheRequest, varyNames: readonly string[]): string {
  let key = primaryKey(req);
  // NUL cannot occur in a field value (RFC 9110 §5.5), so the parts cannot run into each other;
  // an absent field is told apart from an empty one.
  for (const name of varyNames) key += `\0${name}${req.header(name) === undefined ? '\u0001' : `=${req.header(name)}`}`;
  return key;
}
