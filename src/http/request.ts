/**
 * wasi:http incoming-request → Fetch `Request`. The body is a ReadableStream that reads the
 * incoming-body stream as the application pulls it (gRPC client streams need this), never
 * buffering the whole body up front.
 */
import { IncomingBody, type IncomingRequest, type Method } from 'wasi:http/types@0.2.12';

const decoder = new TextDecoder();
/** Bytes asked for per read; the host returns what it has, up to this. */
const READ_SIZE = 65_536n;

function methodName(method: Method): string {
  return method.tag === 'other' ? method.val : method.tag.toUpperCase();
}

function bodyStream(request: IncomingRequest): ReadableStream<Uint8Array> {
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
  return new ReadableStream<Uint8Array>({
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
        controller.error(new Error('the request body could not be read'));
      }
    },
    cancel() {
      finish();
    },
  }, { highWaterMark: 0 });
}

function isClosed(error: unknown): boolean {
  const payload = (error as { payload?: { tag?: string } } | undefined)?.payload ?? error;
  return (payload as { tag?: string } | undefined)?.tag === 'closed';
}

export function toRequest(request: IncomingRequest): Request {
  const method = methodName(request.method());
  const scheme = request.scheme()?.tag === 'HTTPS' ? 'https' : 'http';
  const url = `${scheme}://${request.authority() ?? 'localhost'}${request.pathWithQuery() ?? '/'}`;
  const headers = new Headers();
  for (const [name, value] of request.headers().entries()) headers.append(name, decoder.decode(value));
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(url, { method, headers, body: hasBody ? bodyStream(request) : null });
}
