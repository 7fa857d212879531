/**
 * Where the relay meets the HTTP exchange: a guest response carrying `x-app-relay` loses that
 * header on its way out, and when the guest ends its body the client's response stays open and
 * is handed to the relay instead of being ended. A GET's stream is SSE (keepalive comments); a
 * gRPC call's is a server stream of messages that ends with trailers (grpc-stream.ts). The stream
 * is adopted under its client's key (the address the host determines, keyed as the per-client
 * limits key it), whose share of the relay's writes it gets (client-share.ts).
 */
import type { ServerResponse } from 'node:http';
import type { ResponseHook } from '../net/response-hook.ts';
import type { NodeRequest, NodeResponse } from '../net/node-http.ts';
import type { HostLogger } from '../log.ts';
import { onResponseClosed, responseClosed } from '../net/response-closed.ts';
import type { FieldEntry } from '../wasi/http-fields.ts';
import { RELAY_HEADER } from '../../src/contract/headers.ts';
import { clientKeyOf, peerAddress, type ClientAddressOf } from '../net/client-address.ts';
import { isGrpcRequest } from '../net/grpc-request.ts';
import { grpcSink } from './grpc-stream.ts';
import { parseInstruction } from './headers.ts';
import type { RelaySink, StreamRelay } from './relay.ts';

const decoder = new TextDecoder();
/** An SSE comment: keeps proxies from closing a silent stream. */
const SSE_KEEPALIVE = new TextEncoder().encode(': keepalive\n\n');

function responseSink(res: NodeResponse): RelaySink {
  return {
    write: (bytes) => void (res as ServerResponse).write(bytes),
    get buffered() {
      return (res as ServerResponse).writableLength ?? 0;
    },
    get closed() {
      return responseClosed(res);
    },
    onClose: (listener) => onResponseClosed(res, listener),
    end: () => {
      if (!responseClosed(res)) res.end();
    },
    destroy: () => res.destroy(),
    keepalive: SSE_KEEPALIVE,
  };
}

/** The hook for one exchange; records the wake epoch now, before the guest reads anything. */
export function relayHook(relay: StreamRelay, logger: HostLogger, req: NodeRequest, clientAddress: ClientAddressOf = peerAddress): ResponseHook {
  const mark = relay.mark();
  const client = clientKeyOf(req, clientAddress);
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  return {
    head(status, headers: FieldEntry[], res) {
      const found = headers.find(([name]) => name === RELAY_HEADER);
      if (!found) return { headers };
      // A relayed body goes on after the guest's part: it has no length.
      const rest = headers.filter(([name]) => name !== RELAY_HEADER && name !== 'content-length');
      const instruction = parseInstruction(decoder.decode(found[1]));
      const grpc = req.method === 'POST' && isGrpcRequest(req);
      if (req.method !== 'GET' && !grpc) return { headers: rest }; // a HEAD has no body to go on with
      if (!instruction || status !== 200) {
        logger.log('error', 'the guest sent an invalid relay instruction; the stream ends with its body', { code: 'relay_instruction_invalid', status });
        return { headers: rest };
      }
      const sink = grpc ? grpcSink(responseSink(res), res) : responseSink(res);
      return { headers: rest, adopt: () => relay.adopt(sink, path, instruction, mark, client) };
    },
  };
}
