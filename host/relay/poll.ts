/**
 * One poll of a relayed stream: an internal GET through the component (a pooled instance, a
 * short exchange), `x-app-relay-poll: <after>`, whose whole answer is collected in memory.
 */
import type { InstancePool } from '../pool.ts';
import type { FieldEntry } from '../wasi/http-fields.ts';
import { BodySource, IncomingRequest } from '../wasi/http-incoming.ts';
import { ResponseOutparam, type BodyTarget, type ResponseTarget } from '../wasi/http-response.ts';
import { RELAY_HEADER, RELAY_POLL_HEADER } from '../../src/contract/headers.ts';
import { parseInstruction } from './headers.ts';

export interface PollAnswer {
  /** Bytes to write to every client at the polled position (may be empty). */
  bytes: Uint8Array;
  /** The position those clients are at afterwards. */
  after: number;
}

export type Poller = (path: string, after: number) => Promise<PollAnswer>;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

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

  answer(): PollAnswer {
    if (this.#failure !== undefined) throw new Error(`the guest failed the poll: ${this.#failure}`);
    if (!this.#finished) throw new Error('the guest returned before finishing the poll answer');
    const header = this.headers.find(([name]) => name === RELAY_HEADER);
    const instruction = header && parseInstruction(decoder.decode(header[1]));
    if (this.status !== 200 || !instruction) throw new Error(`the guest answered the poll with status ${this.status} and no valid ${RELAY_HEADER}`);
    const size = this.#chunks.reduce((n, c) => n + c.byteLength, 0);
    const bytes = new Uint8Array(size);
    let offset = 0;
    for (const chunk of this.#chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return { bytes, after: instruction.after };
  }
}

export function guestPoller(pool: InstancePool): Poller {
  return async (path, after) => {
    const body = new BodySource();
    body.finish();
    const request = new IncomingRequest({
      method: 'GET',
      pathWithQuery: path,
      scheme: 'http',
      authority: 'localhost',
      headers: [[RELAY_POLL_HEADER, encoder.encode(String(after))]],
      body,
    });
    const response = new CollectedResponse();
    await pool.run((instance) => instance.handle(request, response.outparam));
    return response.answer();
  };
}
