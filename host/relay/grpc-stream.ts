/**
 * A relayed gRPC server-streaming call (gRPC over HTTP/2, doc/PROTOCOL-HTTP2.md). The relay
 * writes the guest's length-prefixed messages as they come, like SSE frames; what differs is the
 * end of the stream and the silence in between:
 * - a call ends with `grpc-status` trailers: when the host ends it (shutdown) the client is told
 *   UNAVAILABLE, so it may call again elsewhere; the deadline's DEADLINE_EXCEEDED is sent by
 *   host/http/grpc-deadline.ts, and a client that leaves resets its HTTP/2 stream;
 * - nothing may be written between messages (no keepalive bytes: HTTP/2 PING is the transport's).
 */
import type { ServerResponse } from 'node:http';
import type { NodeResponse } from '../net/node-http.ts';
import { responseClosed } from '../net/response-closed.ts';
import type { RelaySink } from './delivery.ts';

const GRPC_UNAVAILABLE = '14';

/** `sink`, ended with trailers and without keepalives. */
export function grpcSink(sink: RelaySink, res: NodeResponse): RelaySink {
  return {
    write: (bytes) => sink.write(bytes),
    get buffered() {
      return sink.buffered;
    },
    get closed() {
      return sink.closed;
    },
    onClose: (listener) => sink.onClose(listener),
    end: () => {
      if (responseClosed(res)) return;
      (res as ServerResponse).addTrailers({ 'grpc-status': GRPC_UNAVAILABLE, 'grpc-message': 'the server is shutting down' });
      res.end();
    },
    destroy: () => sink.destroy(),
    keepalive: undefined,
  };
}
