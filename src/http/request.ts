/**
 * wasi:http incoming-request → Fetch `Request`. A body that declares a length of at most
 * EAGER_BODY_BYTES (a JSON command, a form post) is read at once and handed to the `Request` as
 * bytes: the runtime then parses it natively, where a JS ReadableStream source cost more than the
 * command routine itself. Any other body (gRPC client streams, chunked or larger uploads) is a
 * ReadableStream that reads the incoming-body stream as the application pulls it, never
 * buffering the whole body up front.
 */
import { IncomingBody, type IncomingRequest, type Method } from 'wasi:http/types@0.2.12';
import { AppError } from '../errors.ts';

const decoder = new TextDecoder();
/** Bytes asked for per read; the host returns what it has, up to this. */
const READ_SIZE = 65_536n;
/**
 * Bodies up to this declared length are read before the application runs: the limit of the JSON
 * routes and server functions (256 KiB), which the Node host has read in full before it took an
 * instance (host/http/body-preread.ts), so the reads return at once.
 */
const EAGER_BODY_BYTES = 256 * 1024;

function methodName(method: Method): string {
  return method.tag === 'other' ? method.val : method.tag.toUpperCase();
}

/** A request body as a ReadableStream, and `release` to drop its handles if the application never read it to the end. */
interface RequestBody {
  stream: ReadableStream<Uint8Array>;
  release(): void;
}

function bodyStream(request: IncomingRequest): RequestBody {
  const body = request.consume();
  const stream = body.stream();
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    stream[Symbol.dispose]();
    IncomingBody.finish(body)[Symbol.dispose]();
  };
  // highWaterMark 0: pull only when the application is waiting for bytes. With the default (1)
  // the stream would pull again right after handing out a chunk, and a blocking read there
  // suspends the whole instance before the application sees that chunk (a bidirectional gRPC
  // call would wait for a message the client only sends after our reply).
  const readable = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        try {
          // blocking-read suspends only this instance (JSPI on the Node host).
          const bytes = stream.blockingRead(READ_SIZE);
          if (bytes.byteLength > 0) controller.enqueue(bytes);
        } catch (error) {
          if (isClosed(error)) {
            finish();
            controller.close();
            return;
          }
          finish();
          // Only the client breaks a body (it aborted, reset its stream or sent a bad chunk):
          // a 400 logged at warn, not a 500 a client could write into the error log at will.
          controller.error(new AppError('validation', 'the request body could not be read', { cause: error }));
        }
      },
      cancel() {
        finish();
      },
    },
    { highWaterMark: 0 },
  );
  return { stream: readable, release: finish };
}

/** The whole body of `length` declared bytes, or undefined when it could not be read (the client broke it off). */
function readWhole(request: IncomingRequest, length: number): Uint8Array<ArrayBuffer> | undefined {
  const body = request.consume();
  const stream = body.stream();
  const bytes = new Uint8Array(length);
  let filled = 0;
  try {
    for (;;) {
      // `read` answers at once with what the host holds (the Node host holds such a body whole);
      // only when that is nothing yet does the instance wait (suspend) for more.
      let chunk = stream.read(READ_SIZE);
      if (chunk.byteLength === 0) chunk = stream.blockingRead(READ_SIZE);
      if (filled + chunk.byteLength > length) return undefined;
      bytes.set(chunk, filled);
      filled += chunk.byteLength;
    }
  } catch (error) {
    if (!isClosed(error) || filled !== length) return undefined;
    return bytes;
  } finally {
    stream[Symbol.dispose]();
    IncomingBody.finish(body)[Symbol.dispose]();
  }
}

/** A body the client broke off: reading it fails as a streamed one does (400 `validation`). */
function brokenBody(): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.error(new AppError('validation', 'the request body could not be read'));
    },
  });
}

/** The declared Content-Length when it is a plain decimal within EAGER_BODY_BYTES (RFC 9110 §8.6). */
function eagerLength(headers: Headers): number | undefined {
  const declared = headers.get('content-length');
  if (declared === null || !/^[0-9]{1,7}$/.test(declared)) return undefined;
  const length = Number(declared);
  return length <= EAGER_BODY_BYTES ? length : undefined;
}

function isClosed(error: unknown): boolean {
  const payload = (error as { payload?: { tag?: string } } | undefined)?.payload ?? error;
  return (payload as { tag?: string } | undefined)?.tag === 'closed';
}

/**
 * Reads everything the Request needs, then drops the incoming-request and its headers: the guest
 * owns both handles (wasi:http/incoming-handler#handle passes the request as `own`), and a handle
 * never dropped keeps the host's objects alive for the instance's lifetime (two per request,
 * docs/memory.md). The headers are a child of the request and go first (wasi:http/types:
 * "must be dropped before the parent incoming-request is dropped"); the body, once consumed, is
 * not a child and lives on in the ReadableStream.
 */
export interface IncomingExchange {
  request: Request;
  /**
   * Drops what is left of the incoming body (its stream and the body itself). A handler that never
   * reads the body (POST /api/counter/reset, a 404) would otherwise keep both handles for the
   * instance's life; call it once the response is written.
   */
  release(): void;
}

/** A request the guest cannot build a URL or a `Request` from: answered 400, never a trap. */
export interface MalformedRequest {
  malformed: string;
}

/** The methods this server answers somewhere, for `OPTIONS *` (RFC 9110 §9.3.7; the Node host answers it itself). */
export const SERVER_METHODS = 'GET, HEAD, POST, DELETE, OPTIONS';

/** Characters an authority (`host[:port]`, RFC 9110 §7.2) never holds but a URL parser would read past. */
const NOT_IN_AUTHORITY = /[/?#@\\\s]/;

function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * The request URL, or why there is none. `wasmtime serve` passes the authority and target as the
 * client sent them: a Host with a path (`h/api/x?`) must not become part of the route, and one
 * the URL parser refuses (`h:99999`, `[`) must not throw out of the handler.
 */
function requestUrl(scheme: string, authority: string, pathWithQuery: string): URL | MalformedRequest {
  if (!pathWithQuery.startsWith('/')) return { malformed: 'the request target is not a path' };
  if (authority === '' || NOT_IN_AUTHORITY.test(authority) || hasControl(authority)) return { malformed: 'the Host header is not a valid host[:port]' };
  // One parse: an authority free of the characters above cannot reach into the path, and a
  // target that starts with '/' cannot reach back into the authority.
  try {
    return new URL(`${scheme}://${authority}${pathWithQuery}`);
  } catch {
    // Which part was refused decides the message (the parse above is the common path).
    try {
      new URL(`${scheme}://${authority}/`);
    } catch {
      return { malformed: 'the Host header is not a valid host[:port]' };
    }
    return { malformed: 'the request target is not a valid path' };
  }
}

/** `OPTIONS *`: a question about the server, not a resource (RFC 9110 §9.3.7). */
export interface ServerOptionsRequest {
  serverOptions: true;
}

export function toRequest(request: IncomingRequest): IncomingExchange | MalformedRequest | ServerOptionsRequest {
  let body: RequestBody | undefined;
  try {
    const method = methodName(request.method());
    const scheme = request.scheme()?.tag === 'HTTPS' ? 'https' : 'http';
    const pathWithQuery = request.pathWithQuery() ?? '/';
    if (pathWithQuery === '*' && method === 'OPTIONS') return { serverOptions: true };
    const url = requestUrl(scheme, request.authority() ?? 'localhost', pathWithQuery);
    if (!(url instanceof URL)) return url;
    const headers = new Headers();
    const fields = request.headers();
    try {
      for (const [name, value] of fields.entries()) headers.append(name, decoder.decode(value));
    } finally {
      fields[Symbol.dispose]();
    }
    const hasBody = method !== 'GET' && method !== 'HEAD';
    const length = hasBody ? eagerLength(headers) : undefined;
    if (length !== undefined) {
      const bytes = readWhole(request, length);
      const eager = bytes === undefined ? brokenBody() : length === 0 ? null : bytes;
      return { request: new Request(url, { method, headers, body: eager }), release: () => undefined };
    }
    body = hasBody ? bodyStream(request) : undefined;
    const built = new Request(url, { method, headers, body: body?.stream ?? null });
    return { request: built, release: body?.release ?? (() => undefined) };
  } catch {
    // A method or field value the Fetch API refuses (e.g. a forbidden method, a NUL in a value).
    body?.release();
    return { malformed: 'the request method or a header field is not valid' };
  } finally {
    request[Symbol.dispose]();
  }
}
