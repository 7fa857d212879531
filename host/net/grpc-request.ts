/**
 * Whether a request speaks gRPC (application/grpc, +proto, -web…): such calls stream their
 * messages, hold their instance for the call's life (a relayed server stream only for its opening) and
 * get their errors as gRPC statuses.
 * Media types compare case-insensitively (RFC 9110 §8.3.1).
 */
import type { NodeRequest } from './node-http.ts';

export function isGrpcRequest(req: NodeRequest): boolean {
  return req.headers['content-type']?.toLowerCase().startsWith('application/grpc') ?? false;
}
