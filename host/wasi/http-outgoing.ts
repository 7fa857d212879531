/**
 * wasi:http/outgoing-handler and the resources of outgoing requests (the guest's `fetch`).
 * The request body is collected until the guest finishes it, then sent with Node's fetch;
 * the response body streams back through an incoming-body.
 */
import { Fields, HOP_BY_HOP, type FieldEntry } from './http-fields.ts';
import { BodySource, IncomingBody, type Method } from './http-incoming.ts';
import { OutgoingBody, type BodyTarget } from './http-response.ts';
import { Pollable } from './io.ts';

type Scheme = { tag: string; val?: string };

/** Collects an outgoing request body in memory. */
class CollectedBody implements BodyTarget {
  readonly chunks: Uint8Array[] = [];
  closed = false;
  readonly congested = false;
  readonly done: Promise<void>;
  #resolve!: () => void;
  constructor() {
    this.done = new Promise((r) => (this.#resolve = r));
  }
  write(bytes: Uint8Array): boolean {
    this.chunks.push(bytes);
    return true;
  }
  whenWritable(): Promise<void> {
    return Promise.resolve();
  }
  finish(): void {
    this.closed = true;
    this.#resolve();
  }
  abort(): void {
    this.closed = true;
    this.#resolve();
  }
}

export class OutgoingRequest {
  #method: Method = { tag: 'get' };
  #path: string | undefined;
  #scheme: Scheme | undefined;
  #authority: string | undefined;
  readonly #headers: Fields;
  #body: OutgoingBody | undefined;
  readonly collected = new CollectedBody();

  constructor(headers: Fields) {
    this.#headers = headers;
  }
  body(): OutgoingBody {
    if (this.#body) throw undefined;
    this.#body = new OutgoingBody();
    this.#body.pending.attach(this.collected);
    return this.#body;
  }
  method(): Method {
    return this.#method;
  }
  setMethod(method: Method): void {
    this.#method = method;
  }
  pathWithQuery(): string | undefined {
    return this.#path;
  }
  setPathWithQuery(path: string | undefined): void {
    this.#path = path;
  }
  scheme(): Scheme | undefined {
    return this.#scheme;
  }
  setScheme(scheme: Scheme | undefined): void {
    this.#scheme = scheme;
  }
  authority(): string | undefined {
    return this.#authority;
  }
  setAuthority(authority: string | undefined): void {
    this.#authority = authority;
  }
  headers(): Fields {
    const view = this.#headers.clone();
    view.freeze();
    return view;
  }
  /** @internal */
  toFetch(): { url: string; method: string; headers: FieldEntry[]; hasBody: boolean } {
    const scheme = this.#scheme?.tag === 'HTTPS' ? 'https' : this.#scheme?.tag === 'other' ? this.#scheme.val : 'http';
    const method = this.#method.tag === 'other' ? String(this.#method.val) : this.#method.tag.toUpperCase();
    return {
      url: `${scheme}://${this.#authority ?? ''}${this.#path ?? '/'}`,
      method,
      headers: this.#headers.entries(),
      hasBody: this.#body !== undefined,
    };
  }
}

export class RequestOptions {
  #connect: bigint | undefined;
  #firstByte: bigint | undefined;
  #betweenBytes: bigint | undefined;
  connectTimeout(): bigint | undefined {
    return this.#connect;
  }
  setConnectTimeout(d: bigint | undefined): void {
    this.#connect = d;
  }
  firstByteTimeout(): bigint | undefined {
    return this.#firstByte;
  }
  setFirstByteTimeout(d: bigint | undefined): void {
    this.#firstByte = d;
  }
  betweenBytesTimeout(): bigint | undefined {
    return this.#betweenBytes;
  }
  setBetweenBytesTimeout(d: bigint | undefined): void {
    this.#betweenBytes = d;
  }
  /** @internal total budget for one exchange, in milliseconds */
  get totalMs(): number {
    const ns = (this.#connect ?? 10_000_000_000n) + (this.#firstByte ?? 20_000_000_000n);
    return Number(ns / 1_000_000n);
  }
}

export class IncomingResponse {
  readonly #status: number;
  readonly #headers: FieldEntry[];
  readonly #body: BodySource;
  #consumed = false;
  constructor(status: number, headers: FieldEntry[], body: BodySource) {
    this.#status = status;
    this.#headers = headers;
    this.#body = body;
  }
  status(): number {
    return this.#status;
  }
  headers(): Fields {
    return Fields.frozen(this.#headers);
  }
  consume(): IncomingBody {
    if (this.#consumed) throw undefined;
    this.#consumed = true;
    return new IncomingBody(this.#body);
  }
}

type ErrorCode = { tag: string; val?: unknown };
type Outcome = { tag: 'ok'; val: IncomingResponse } | { tag: 'err'; val: ErrorCode };

export class FutureIncomingResponse {
  #outcome: Outcome | undefined;
  #taken = false;
  readonly #settled: Promise<void>;
  constructor(work: Promise<Outcome>) {
    this.#settled = work.then((o) => {
      this.#outcome = o;
    });
  }
  subscribe(): Pollable {
    return new Pollable(
      () => this.#outcome !== undefined,
      () => this.#settled,
    );
  }
  get(): unknown {
    if (!this.#outcome) return undefined;
    if (this.#taken) return { tag: 'err', val: undefined };
    this.#taken = true;
    return { tag: 'ok', val: this.#outcome };
  }
}

const decoder = new TextDecoder();

async function send(request: OutgoingRequest, options: RequestOptions | undefined): Promise<Outcome> {
  const init = request.toFetch();
  if (init.hasBody) await request.collected.done;
  const headers = new Headers();
  for (const [name, value] of init.headers) if (!HOP_BY_HOP.has(name)) headers.append(name, decoder.decode(value));
  try {
    const response = await fetch(init.url, {
      method: init.method,
      headers,
      body: init.hasBody && request.collected.chunks.length > 0 ? Buffer.concat(request.collected.chunks) : undefined,
      redirect: 'manual',
      signal: AbortSignal.timeout(options?.totalMs ?? 30_000),
    });
    const source = new BodySource();
    void pump(response, source);
    const entries: FieldEntry[] = [];
    response.headers.forEach((value, name) => {
      entries.push([name, new TextEncoder().encode(value)]);
    });
    return { tag: 'ok', val: new IncomingResponse(response.status, entries, source) };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'TimeoutError') return { tag: 'err', val: { tag: 'connection-timeout' } };
    return { tag: 'err', val: { tag: 'connection-refused' } };
  }
}

async function pump(response: Response, source: BodySource): Promise<void> {
  try {
    if (response.body) for await (const chunk of response.body) source.queue.push(chunk);
    source.finish();
  } catch (error) {
    source.fail(error instanceof Error ? error.message : 'response body failed');
  }
}

export const outgoingHandler = {
  handle(request: OutgoingRequest, options: RequestOptions | undefined): FutureIncomingResponse {
    return new FutureIncomingResponse(send(request, options));
  },
};
