/**
 * The Node request/response pair of one exchange, HTTP/1.1 or HTTP/2 (compat API): the types every
 * layer of the host that sees an exchange shares, so none of them imports the server for them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';

export type NodeRequest = IncomingMessage | Http2ServerRequest;
export type NodeResponse = ServerResponse | Http2ServerResponse;
