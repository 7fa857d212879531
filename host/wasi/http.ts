/** The wasi:http import objects: types plus the outgoing handler. */
import { Fields } from './http-fields.ts';
import { FutureTrailers, IncomingBody, IncomingRequest } from './http-incoming.ts';
import { FutureIncomingResponse, IncomingResponse, OutgoingRequest, RequestOptions, outgoingHandler } from './http-outgoing.ts';
import { OutgoingBody, OutgoingResponse, ResponseOutparam } from './http-response.ts';

export const httpImports = {
  'wasi:http/types': {
    Fields,
    FutureIncomingResponse,
    FutureTrailers,
    IncomingBody,
    IncomingRequest,
    IncomingResponse,
    OutgoingBody,
    OutgoingRequest,
    OutgoingResponse,
    RequestOptions,
    ResponseOutparam,
    httpErrorCode: () => undefined,
  },
  'wasi:http/outgoing-handler': outgoingHandler,
};
