/**
 * Fetch `Response` → wasi:http response, streamed: the head goes out first (response-outparam.set),
 * then each body chunk as the application produces it, then finish with trailers if any.
 * A complete body (a BufferedResponse) is written at once, without a ReadableStream, and then
 * nothing waits: the whole write is synchronous unless trailers are pending.
 * A client that went away surfaces as a closed stream: the body's reader is cancelled, so a
 * streaming producer (SSE) stops.
 */
import { Fields, OutgoingBody, OutgoingResponse, ResponseOutparam } from 'wasi:http/types@0.2.12';
import { BufferedResponse } from './buffered-response.ts';
import { FieldsCache } from './fields-cache.ts';
import { trailersOf } from './trailers.ts';

const encoder = new TextEncoder();

type OutputStream = ReturnType<OutgoingBody['write']>;

/** Distinct response heads kept as `fields` templates, per instance. */
const heads = new FieldsCache<Fields>(64);

function toFields(headers: Headers): Fields {
  const entries: Array<[string, Uint8Array]> = [];
  headers.forEach((value, name) => {
    entries.push([name, encoder.encode(value)]);
  });
  return Fields.fromList(entries);
}

/** The head's fields, from the cache. Names are tokens and values hold no line breaks, so the key is unambiguous. */
function headFields(headers: Headers): Fields {
  let key = '';
  headers.forEach((value, name) => {
    key += `${name}:${value}\n`;
  });
  return heads.get(key, () => toFields(headers));
}

/** Writes all of `chunk`, waiting (suspending) whenever the host applies backpressure. */
function writeChunk(stream: OutputStream, chunk: Uint8Array): void {
  let offset = 0;
  while (offset < chunk.byteLength) {
    let budget = Number(stream.checkWrite());
    if (budget === 0) {
      const ready = stream.subscribe();
      ready.block();
      ready[Symbol.dispose]();
      budget = Number(stream.checkWrite());
      if (budget === 0) continue;
    }
    const end = Math.min(chunk.byteLength, offset + budget);
    stream.write(chunk.subarray(offset, end));
    offset = end;
  }
  stream.flush();
}

export function writeResponse(response: Response, outparam: ResponseOutparam): void | Promise<void> {
  const outgoing = new OutgoingResponse(headFields(response.headers));
  // A new outgoing-response already has status 200 (wasi:http/types): one import call less.
  if (response.status !== 200) outgoing.setStatusCode(response.status);
  const body = outgoing.body();
  ResponseOutparam.set(outparam, { tag: 'ok', val: outgoing });

  const stream = body.write();
  const bytes = BufferedResponse.take(response);
  if (bytes === undefined) {
    const source = response.body;
    if (source) return writeStreamed(response, source, body, stream);
    return finish(response, body, stream, false);
  }
  let clientGone = false;
  try {
    if (bytes.byteLength > 0) writeChunk(stream, bytes);
  } catch {
    clientGone = true; // the client went away (closed stream)
  }
  return finish(response, body, stream, clientGone);
}

async function writeStreamed(response: Response, source: ReadableStream<Uint8Array>, body: OutgoingBody, stream: OutputStream): Promise<void> {
  let clientGone = false;
  const reader = source.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (value && value.byteLength > 0) writeChunk(stream, value);
    }
  } catch {
    // The client went away (closed stream) or the producer failed: stop producing.
    clientGone = true;
    await reader.cancel().catch(() => undefined);
  }
  return finish(response, body, stream, clientGone);
}

/** Ends the body, with trailers once they are known. */
function finish(response: Response, body: OutgoingBody, stream: OutputStream, clientGone: boolean): void | Promise<void> {
  stream[Symbol.dispose]();
  if (clientGone) {
    body[Symbol.dispose]();
    return;
  }
  const trailers = trailersOf(response);
  if (!trailers) return finishBody(body, undefined);
  return trailers.then((headers) => finishBody(body, toFields(headers)));
}

/**
 * `outgoing-body.finish`, whose error means the body can no longer be delivered: `wasmtime serve`
 * refuses it for a HEAD response (which carries no body) and when the client has gone. Thrown out
 * of the handler it would trap the instance; there is nothing left to send either way.
 */
function finishBody(body: OutgoingBody, trailers: Fields | undefined): void {
  try {
    OutgoingBody.finish(body, trailers);
  } catch {
    // the response head is out; the body has nowhere to go
  }
}

/** Answers with a bare status when even building the response failed. */
export function writeFallback(outparam: ResponseOutparam, status: number, text: string): void | Promise<void> {
  return writeResponse(new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } }), outparam);
}
