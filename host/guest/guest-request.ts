/**
 * A request the host itself makes to the component (no client, no socket): through a pooled
 * instance, a short exchange whose whole answer is collected in memory. The stream relay's polls
 * and the maintenance pass use it.
 */
import type { InstancePool } from './pool.ts';
import type { FieldEntry } from '../wasi/http-fields.ts';
import { BodySource, IncomingRequest } from '../wasi/http-incoming.ts';
import { ResponseOutparam, type BodyTarget, type ResponseTarget } from '../wasi/http-response.ts';

export interface GuestAnswer {
  status: number;
  headers: FieldEntry[];
  body: Uint8Array;
}

class CollectedResponse implements ResponseTarget {
  readonly outparam = new ResponseOutparam(this);
  status = 0;
  headers: FieldEntry[] = [];
  readonly #chunks: Uint8Array[] = [];
  #finished = false;
  #failure: string | undefined;

  start(status: number, headers: FieldEntry[]): BodyTarget {
    this.status = status;
    this.headers = headers;
    const chunks = this.#chunks;
    return {
      closed: false,
      congested: false,
      write: (bytes) => (chunks.push(bytes.slice()), true),
      whenWritable: () => Promise.resolve(),
      finish: () => void (this.#finished = true),
      abort: (reason) => void (this.#failure = reason),
    };
  }
  fail(reason: string): void {
    this.#failure = reason;
  }

  answer(): GuestAnswer {
    if (this.#failure !== undefined) throw new Error(`the guest failed the request: ${this.#failure}`);
    if (!this.#finished) throw new Error('the guest returned before finishing its answer');
    const size = this.#chunks.reduce((n, c) => n + c.byteLength, 0);
    const body = new Uint8Array(size);
    let offset = 0;
    for (const chunk of this.#chunks) {
      body.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return { status: this.status, headers: this.headers, body };
  }
}

/** Sends a body-less request to a pooled instance and returns its complete answer. */
export async function requestGuest(pool: InstancePool, method: string, path: string, headers: FieldEntry[]): Promise<GuestAnswer> {
  const body = new BodySource();
  body.finish();
  const request = new IncomingRequest({ method, pathWithQuery: path, scheme: 'http', authority: 'localhost', headers, body });
  const response = new CollectedResponse();
  await pool.run((instance) => instance.handle(request, response.outparam));
  return response.answer();
}
