/** wasi:http/types resources for requests arriving at the host: incoming-request, incoming-body, future-trailers. */
import { Fields, type FieldEntry } from './http-fields.ts';
import { ByteQueue, InputStream, Pollable } from './io.ts';

export type Method = { tag: string; val?: string };
const KNOWN_METHODS = new Set(['get', 'head', 'post', 'put', 'delete', 'connect', 'options', 'trace', 'patch']);

export function toWasiMethod(method: string): Method {
  const lower = method.toLowerCase();
  return KNOWN_METHODS.has(lower) && method === method.toUpperCase() ? { tag: lower } : { tag: 'other', val: method };
}

/** A body that arrives over time, then (maybe) trailers. */
export class BodySource {
  readonly queue = new ByteQueue();
  #trailers: FieldEntry[] | undefined;
  #done = false;
  #waiters: Array<() => void> = [];

  finish(trailers?: FieldEntry[]): void {
    this.#trailers = trailers;
    this.#done = true;
    this.queue.end();
    for (const w of this.#waiters.splice(0)) w();
  }
  fail(message: string): void {
    this.#done = true;
    this.queue.fail(message);
    for (const w of this.#waiters.splice(0)) w();
  }
  get done(): boolean {
    return this.#done;
  }
  get trailers(): FieldEntry[] | undefined {
    return this.#trailers;
  }
  whenDone(): Promise<void> {
    return this.#done ? Promise.resolve() : new Promise((r) => this.#waiters.push(r));
  }
}

export class FutureTrailers {
  readonly #source: BodySource;
  #taken = false;
  constructor(source: BodySource) {
    this.#source = source;
  }
  subscribe(): Pollable {
    return new Pollable(
      () => this.#source.done,
      () => this.#source.whenDone(),
    );
  }
  get(): unknown {
    if (!this.#source.done) return undefined;
    if (this.#taken) return { tag: 'err', val: undefined };
    this.#taken = true;
    const trailers = this.#source.trailers;
    return { tag: 'ok', val: { tag: 'ok', val: trailers && trailers.length > 0 ? Fields.frozen(trailers) : undefined } };
  }
}

export class IncomingBody {
  readonly #source: BodySource;
  #streamTaken = false;
  constructor(source: BodySource) {
    this.#source = source;
  }
  stream(): InputStream {
    if (this.#streamTaken) throw undefined;
    this.#streamTaken = true;
    return new InputStream(this.#source.queue);
  }
  static finish(body: IncomingBody): FutureTrailers {
    return new FutureTrailers(body.#source);
  }
}

export interface IncomingRequestInit {
  method: string;
  pathWithQuery: string;
  scheme: 'http' | 'https';
  authority: string;
  headers: FieldEntry[];
  body: BodySource;
}

export class IncomingRequest {
  readonly #init: IncomingRequestInit;
  #consumed = false;
  constructor(init: IncomingRequestInit) {
    this.#init = init;
  }
  method(): Method {
    return toWasiMethod(this.#init.method);
  }
  pathWithQuery(): string {
    return this.#init.pathWithQuery;
  }
  scheme(): { tag: string } {
    return { tag: this.#init.scheme === 'https' ? 'HTTPS' : 'HTTP' };
  }
  authority(): string {
    return this.#init.authority;
  }
  headers(): Fields {
    return Fields.frozen(this.#init.headers);
  }
  consume(): IncomingBody {
    if (this.#consumed) throw undefined;
    this.#consumed = true;
    return new IncomingBody(this.#init.body);
  }
}
