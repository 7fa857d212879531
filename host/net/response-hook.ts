/**
 * What the server lets the layers beside it do with a guest's response: keep it open after the
 * guest's body ends (host/relay/hook.ts) or see its body as it is sent (host/response-cache/).
 * host/http/exchange.ts calls the hook with the guest's head.
 */
import type { FieldEntry } from './field-entry.ts';
import type { NodeResponse } from './node-http.ts';

/** Sees a response body as it is sent (host/response-cache/ records cacheable ones). */
export interface BodyObserver {
  write(bytes: Uint8Array): void;
  /** the body was sent completely, without trailers */
  end(): void;
  abort(): void;
}

/** Lets the host keep a response open after the guest's body ends (host/relay/hook.ts) or observe its body (host/response-cache/). */
export interface ResponseHook {
  /** Sees the guest's head: returns the headers to send and, to keep the response open, what to call instead of ending it. */
  head(status: number, headers: FieldEntry[], res: NodeResponse): { headers: FieldEntry[]; adopt?: () => void; capture?: BodyObserver };
}
