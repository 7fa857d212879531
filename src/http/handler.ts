/**
 * The exported `wasi:http/incoming-handler`. Exported explicitly (not through a fetch event)
 * so one instance serves request after request. Once the response is written (its body finished:
 * the host has sent it), the work the request deferred runs (src/platform/after-response.ts)
 * before the instance is handed back.
 */
import type { IncomingRequest, ResponseOutparam } from 'wasi:http/types@0.2.12';
import { SERVER_METHODS, toRequest } from './request.ts';
import { writeFallback, writeResponse } from './response.ts';
import { profileEnd, profileMark, profileStart } from '../platform/profile.ts';

/** Work queued during an exchange, run after its response (src/platform/after-response.ts). */
export interface DeferredWork {
  drain(onError: (error: unknown) => void): void;
}

export type FetchHandler = (request: Request) => Response | Promise<Response>;

/** 400 with the error envelope, for a request the guest cannot build (src/http/request.ts). */
function malformedResponse(message: string): Response {
  const body = JSON.stringify({ error: { code: 'validation', message } });
  return new Response(body, { status: 400, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
}

export function createIncomingHandler(
  fetchHandler: FetchHandler,
  onError: (error: unknown) => void,
  deferred?: DeferredWork,
  onDeferredError: (error: unknown) => void = onError,
  onMalformed: (reason: string) => void = () => undefined,
) {
  return {
    async handle(request: IncomingRequest, outparam: ResponseOutparam): Promise<void> {
      GUEST_PROFILE: profileStart();
      const incoming = toRequest(request);
      GUEST_PROFILE: profileMark('request');
      if ('serverOptions' in incoming) return writeResponse(new Response(null, { headers: { allow: SERVER_METHODS } }), outparam);
      if ('malformed' in incoming) {
        onMalformed(incoming.malformed);
        return writeResponse(malformedResponse(incoming.malformed), outparam);
      }
      try {
        let response: Response;
        try {
          response = await fetchHandler(incoming.request);
        } catch (error) {
          onError(error);
          await writeFallback(outparam, 500, 'internal error');
          return;
        }
        GUEST_PROFILE: profileMark('app');
        await writeResponse(response, outparam);
        GUEST_PROFILE: profileMark('response write');
      } finally {
        incoming.release();
        deferred?.drain(onDeferredError);
        GUEST_PROFILE: profileMark('release, deferred work');
        GUEST_PROFILE: profileEnd(`${incoming.request.method} ${new URL(incoming.request.url).pathname}`);
      }
    },
  };
}
