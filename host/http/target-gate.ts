/**
 * Applies the request-target decision (request-target.ts) to a Node request before it borrows an
 * instance: a request the guest can take is normalised in place (absolute-form becomes origin-form
 * and its authority the Host, so the response cache and the guest see the same target); `OPTIONS *`
 * and invalid targets are answered here.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NodeRequest, NodeResponse } from '../net/node-http.ts';
import type { HostLogger } from '../log.ts';
import { decideTarget } from './request-target.ts';

/** The methods this server answers somewhere, for `OPTIONS *` (RFC 9110 §9.3.7). */
const SERVER_METHODS = 'GET, HEAD, POST, DELETE, OPTIONS';

function rawValues(req: NodeRequest, name: string): string[] {
  const values: string[] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.toLowerCase() === name) values.push(req.rawHeaders[i + 1]!);
  return values;
}

/** True when the request goes on to the guest; false when it was answered here. */
export function admitTarget(req: NodeRequest, res: NodeResponse, logger: HostLogger): boolean {
  const http2 = req.httpVersionMajor >= 2;
  const decision = decideTarget({
    method: req.method ?? 'GET',
    target: req.url ?? '/',
    hosts: rawValues(req, 'host'),
    authority: http2 ? rawValues(req, ':authority')[0] : undefined,
    http2,
  });
  if (decision.kind === 'guest') {
    if (req.url !== decision.pathWithQuery) req.url = decision.pathWithQuery;
    if (!http2 && req.headers.host !== decision.authority) (req as IncomingMessage).headers.host = decision.authority;
    return true;
  }
  const plain = res as ServerResponse;
  if (decision.kind === 'server-options') {
    plain.writeHead(200, { allow: SERVER_METHODS, 'content-length': '0' });
    plain.end();
    return false;
  }
  logger.log('warn', 'request target or Host refused', { code: 'request_target_invalid', reason: decision.message, method: req.method });
  const body = JSON.stringify({ error: { code: 'validation', message: decision.message } });
  plain.writeHead(400, { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': String(Buffer.byteLength(body)) });
  plain.end(body);
  return false;
}
