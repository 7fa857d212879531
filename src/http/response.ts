/**
 * Fetch `Response` → wasi:http response, streamed: the head goes out first (response-outparam.set),
 * then each body chunk as the application produces it, then finish with trailers if any.
 * A client that went away surfaces as a closed stream: the body's reader is cancelled, so a
 * streaming producer (SSE) stops.
 */
import { Fields, OutgoingBody, OutgoingResponse, ResponseOutparam } from 'wasi:http/types@0.2.12';
import { PROBE_MS, shouldProbeClient } from './client-probe.ts';
import { trailersOf } from './trailers.ts';

const encoder = new TextEncoder();

function toFields(headers: Headers): Fields {
  const entries: Array<[string, Uint8Array]> = [];
  headers.forEach((value, name) => entries.push([name, encoder.encode(value)]));
  return Fields.fromList(entries);
}

/** Writes all of `chunk`, waiting (suspending) whenever the host applies backpressure. */
function writeChunk(stream: ReturnType<OutgoingBody['write']>, chunk: Uint8Array): void {
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

export async function writeResponse(response: Response, outparam: ResponseOutparam): Promise<void> {
  const outgoing = new OutgoingResponse(toFields(response.headers));
  outgoing.setStatusCode(response.status);
  const body = outgoing.body();
  ResponseOutparam.set(outparam, { tag: 'ok', val: outgoing });

  const stream = body.write();
  let clientGone = false;
  if (response.body) {
    const reader = response.body.getReader();
    const probe = shouldProbeClient(response);
    try {
      for (;;) {
        const { value, done } = probe ? await readWhileProbing(reader, stream) : await reader.read();
        if (done) break;
        if (value && value.byteLength > 0) writeChunk(stream, value);
      }
    } catch {
      // The client went away (closed stream) or the producer failed: stop producing.
      clientGone = true;
      await reader.cancel().catch(() => undefined);
    }
  }
  stream[Symbol.dispose]();
  if (clientGone) {
    body[Symbol.dispose]();
    return;
  }
  const trailers = trailersOf(response);
  OutgoingBody.finish(body, trailers ? toFields(await trailers) : undefined);
}

/** Reads the next chunk; while the producer is silent, checks every PROBE_MS that the client is still there. */
async function readWhileProbing(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  stream: ReturnType<OutgoingBody['write']>,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  const read = reader.read();
  for (;;) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = new Promise<'tick'>((resolve) => (timer = setTimeout(() => resolve('tick'), PROBE_MS)));
    const result = await Promise.race([read, tick]);
    clearTimeout(timer);
    if (result !== 'tick') return result;
    stream.checkWrite(); // throws once the client has gone: the caller cancels the producer
  }
}

/** Answers with a bare status when even building the response failed. */
export function writeFallback(outparam: ResponseOutparam, status: number, text: string): Promise<void> {
  return writeResponse(new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } }), outparam);
}
