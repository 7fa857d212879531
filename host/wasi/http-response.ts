/**
 * wasi:http/types resources for the guest's response: outgoing-response, outgoing-body,
 * response-outparam. The head goes to the client as soon as the guest calls
 * `response-outparam.set`; body bytes follow as the guest writes them; `outgoing-body.finish`
 * ends the response with optional trailers.
 */
import { currentExchange } from '../net/exchange-scope.ts';
import type { Fields, FieldEntry } from './http-fields.ts';
import { OutputStream, type ByteSink } from './io.ts';

/** Where a response body goes once the head has been sent. Implemented by the server. */
export interface BodyTarget extends ByteSink {
  finish(trailers: FieldEntry[] | undefined): void;
  /** The guest dropped the body without finishing it: the response is cut short. */
  abort(reason: string): void;
}

/** The server's side of one exchange. */
export interface ResponseTarget {
  start(status: number, headers: FieldEntry[]): BodyTarget;
  fail(reason: string): void;
}

/**
 * A sink that buffers writes made before the head is sent (a guest may write the body
 * before `response-outparam.set`), then forwards to the real target.
 */
class PendingBody implements ByteSink {
  #target: BodyTarget | undefined;
  #buffer: Uint8Array[] = [];
  #finished: { trailers: FieldEntry[] | undefined } | undefined;
  #aborted: string | undefined;

  attach(target: BodyTarget): void {
    this.#target = target;
    for (const chunk of this.#buffer.splice(0)) target.write(chunk);
    if (this.#aborted !== undefined) target.abort(this.#aborted);
    else if (this.#finished) target.finish(this.#finished.trailers);
  }
  write(bytes: Uint8Array): boolean {
    if (this.#target) return this.#target.write(bytes);
    this.#buffer.push(bytes);
    return true;
  }
  whenWritable(): Promise<void> {
    return this.#target ? this.#target.whenWritable() : Promise.resolve();
  }
  get closed(): boolean {
    return this.#finished !== undefined || this.#aborted !== undefined || (this.#target?.closed ?? false);
  }
  get congested(): boolean {
    return this.#target?.congested ?? false;
  }
  finish(trailers: FieldEntry[] | undefined): void {
    this.#finished = { trailers };
    this.#target?.finish(trailers);
  }
  abort(reason: string): void {
    if (this.#finished || this.#aborted !== undefined) return;
    this.#aborted = reason;
    this.#target?.abort(reason);
  }
}

export class OutgoingBody {
  readonly pending = new PendingBody();
  #streamTaken = false;
  #finished = false;

  write(): OutputStream {
    if (this.#streamTaken) throw undefined;
    this.#streamTaken = true;
    return new OutputStream(this.pending);
  }
  static finish(body: OutgoingBody, trailers: Fields | undefined): void {
    body.#finished = true;
    body.pending.finish(trailers?.entries());
  }
  [Symbol.dispose](): void {
    if (!this.#finished) this.pending.abort('the guest dropped the response body before finishing it');
  }
}

export class OutgoingResponse {
  #status = 200;
  readonly #headers: Fields;
  #body: OutgoingBody | undefined;
  constructor(headers: Fields) {
    this.#headers = headers;
  }
  statusCode(): number {
    return this.#status;
  }
  setStatusCode(status: number): void {
    if (!Number.isInteger(status) || status < 100 || status > 999) throw undefined;
    this.#status = status;
  }
  headers(): Fields {
    const view = this.#headers.clone();
    view.freeze();
    return view;
  }
  body(): OutgoingBody {
    if (this.#body) throw undefined;
    this.#body = new OutgoingBody();
    return this.#body;
  }
  /** @internal */
  send(target: ResponseTarget): void {
    const sink = target.start(this.#status, this.#headers.entries());
    (this.#body ??= new OutgoingBody()).pending.attach(sink);
    currentExchange()?.attach(sink);
  }
}

type ResponseResult = { tag: 'ok'; val: OutgoingResponse } | { tag: 'err'; val: { tag: string; val?: unknown } };

export class ResponseOutparam {
  readonly #target: ResponseTarget;
  #set = false;
  constructor(target: ResponseTarget) {
    this.#target = target;
  }
  get isSet(): boolean {
    return this.#set;
  }
  static set(param: ResponseOutparam, response: ResponseResult): void {
    if (param.#set) throw new Error('response-outparam.set called twice');
    param.#set = true;
    if (response.tag === 'ok') response.val.send(param.#target);
    else param.#target.fail(`the guest answered with error ${response.val.tag}`);
  }
}
