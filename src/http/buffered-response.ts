/**
 * A `Response` whose body is already complete (a string or bytes) keeps those bytes aside, so the
 * wasi:http writer can send them in one write instead of creating and reading a ReadableStream
 * (in the guest a `new Response(text)` plus reading it back costs several times the write).
 * @hono/node-server replaces `globalThis.Response` with a "lightweight Response" on Node for the
 * same reason (https://github.com/honojs/node-server, src/response.ts); this one is a real
 * subclass, so everything but the body is the runtime's own Response.
 *
 * What code sees is what a native Response shows: the same headers (the runtime's default
 * content-type for text and, where the runtime adds one, content-length), the same errors, the
 * same body through `body`, `bodyUsed` and the reading methods (those delegate to a native
 * Response built from the kept bytes the first time they are used). Any other body (a stream,
 * Blob, FormData, URLSearchParams, null) is passed to the native constructor unchanged.
 */
const NativeResponse = globalThis.Response;

/** Statuses that must not carry a body; 101 and 103 already fail the constructor's range check. */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

const encoder = new TextEncoder();

interface NativeRules {
  /** The content-type a text body gets when none is set. */
  textType: string | null;
  /** Whether the runtime adds content-length for a known body (StarlingMonkey does; Node does not). */
  setsLength: boolean;
}

let rules: NativeRules | undefined;

/** Read from the runtime itself, on first use (not while the component is being initialised). */
function nativeRules(): NativeRules {
  if (!rules) {
    const headers = new NativeResponse('').headers;
    rules = { textType: headers.get('content-type'), setsLength: headers.has('content-length') };
  }
  return rules;
}

/** The body's bytes when it is a complete string or buffer, copied as the native constructor copies them. */
function bufferedBytes(body: unknown): Uint8Array<ArrayBuffer> | undefined {
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof ArrayBuffer) return new Uint8Array(body.slice(0));
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength).slice();
  return undefined;
}

export class BufferedResponse extends NativeResponse {
  /** The complete body, or undefined when the native Response holds the body itself. */
  readonly #bytes: Uint8Array<ArrayBuffer> | undefined;
  /** The native Response that serves the body once code reads it through the Fetch API. */
  #native: Response | undefined;
  /** The writer took the bytes (the body is consumed, as a stream read to its end would be). */
  #taken = false;

  constructor(body?: BodyInit | null, init?: ResponseInit) {
    const bytes = bufferedBytes(body);
    super(bytes ? null : body, init);
    if (!bytes) return;
    // The native constructor throws its own TypeError for a body with a null-body status.
    if (NULL_BODY_STATUSES.has(this.status)) {
      new NativeResponse(body, init);
      throw new TypeError('Response constructor: a response with a null body status cannot have a body');
    }
    const { textType, setsLength } = nativeRules();
    const headers = this.headers;
    if (typeof body === 'string' && textType !== null && !headers.has('content-type')) headers.set('content-type', textType);
    if (setsLength && !headers.has('content-length')) headers.set('content-length', String(bytes.byteLength));
    this.#bytes = bytes;
  }

  /** Every Response, native ones too, is still `instanceof Response` once this class is the global. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof NativeResponse;
  }

  /**
   * The complete body for the wasi:http writer, or undefined when the body must be streamed
   * (not a buffered response, or its body was already read through the Fetch API). Marks it used.
   */
  static take(response: Response): Uint8Array | undefined {
    if (!(#bytes in response) || response.#bytes === undefined || response.#native || response.#taken) return undefined;
    response.#taken = true;
    return response.#bytes;
  }

  #materialized(): Response {
    if (!this.#native) {
      this.#native = new NativeResponse(this.#bytes, { status: this.status, statusText: this.statusText, headers: this.headers });
      // Already sent by the writer: the body shows as consumed, as after reading it to its end.
      if (this.#taken) this.#native.body?.getReader();
    }
    return this.#native;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return this.#bytes === undefined ? super.body : this.#materialized().body;
  }

  override get bodyUsed(): boolean {
    if (this.#bytes === undefined) return super.bodyUsed;
    return this.#taken || (this.#native?.bodyUsed ?? false);
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#bytes === undefined ? super.arrayBuffer() : this.#materialized().arrayBuffer();
  }

  override blob(): Promise<Blob> {
    return this.#bytes === undefined ? super.blob() : this.#materialized().blob();
  }

  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#bytes === undefined ? super.bytes() : this.#materialized().bytes();
  }

  override formData(): Promise<FormData> {
    return this.#bytes === undefined ? super.formData() : this.#materialized().formData();
  }

  override json(): Promise<unknown> {
    return this.#bytes === undefined ? super.json() : this.#materialized().json();
  }

  override text(): Promise<string> {
    return this.#bytes === undefined ? super.text() : this.#materialized().text();
  }

  override clone(): Response {
    return this.#bytes === undefined ? super.clone() : this.#materialized().clone();
  }
}

// The subclass offers exactly the native API: StarlingMonkey's Response has no `bytes` or `clone`.
for (const name of ['bytes', 'clone']) {
  if (!(name in NativeResponse.prototype)) Reflect.deleteProperty(BufferedResponse.prototype, name);
}

/** Makes Hono's `c.json`/`c.text`/`c.body` (and every `new Response`) create buffered responses. */
export function installBufferedResponse(): void {
  globalThis.Response = BufferedResponse;
}
