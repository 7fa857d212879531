/**
 * BufferedResponse against the runtime's own Response (here Node's): whatever code can observe
 * (status, headers, body through every reader, errors) must be the same; only the wasi:http
 * writer may take the bytes directly. The guest's runtime (StarlingMonkey) also adds
 * content-length, which a stand-in for it checks at the end.
 */
import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BufferedResponse, installBufferedResponse } from './buffered-response.ts';

const Native = globalThis.Response;
afterEach(() => {
  globalThis.Response = Native;
});

const bytesOf = (text: string) => new TextEncoder().encode(text);

const cases: Array<[string, () => BodyInit, ResponseInit?]> = [
  ['text', () => 'héllo €'],
  ['empty text', () => ''],
  ['text with its own content type', () => '{"a":1}', { headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' } }],
  ['bytes', () => new Uint8Array([1, 2, 3])],
  ['an ArrayBuffer', () => new Uint8Array([4, 5]).buffer],
  ['a DataView', () => new DataView(new Uint8Array([9, 8, 7, 6]).buffer, 1, 2)],
  ['a status, status text and headers', () => 'gone', { status: 404, statusText: 'Nope', headers: { 'x-a': '1' } }],
];

function head(response: Response) {
  const { status, statusText, ok, type, url, redirected } = response;
  return { status, statusText, ok, type, url, redirected, headers: [...response.headers] };
}

async function readStream(response: Response): Promise<number[]> {
  const out: number[] = [];
  const reader = response.body!.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return out;
    out.push(...value);
  }
}

/** What `action` returns or throws, comparable between the two classes. */
async function outcome(action: () => unknown): Promise<unknown> {
  try {
    return { value: await action() };
  } catch (error) {
    return { error: (error as Error).constructor.name, message: (error as Error).message };
  }
}

describe('BufferedResponse shows what a native Response shows', () => {
  for (const [name, body, init] of cases) {
    it(`for ${name}`, async () => {
      const native = new Native(body(), init);
      const buffered = new BufferedResponse(body(), init);
      expect(head(buffered)).toEqual(head(native));
      expect(buffered.bodyUsed).toBe(false);
      expect(await buffered.text()).toBe(await native.text());
      expect(buffered.bodyUsed).toBe(true);
      expect(await outcome(() => buffered.text())).toEqual(await outcome(() => native.text()));

      const readers: Array<(r: Response) => Promise<unknown>> = [
        (r) => r.arrayBuffer().then((b) => [...new Uint8Array(b)]),
        (r) => r.blob().then(async (b) => [b.type, b.size, await b.text()]),
        (r) => r.bytes().then((b) => [...b]),
        (r) => readStream(r),
      ];
      for (const read of readers) expect(await read(new BufferedResponse(body(), init))).toEqual(await read(new Native(body(), init)));
    });
  }

  it('parses JSON and rejects malformed JSON the same way', async () => {
    expect(await new BufferedResponse('{"a":[1]}').json()).toEqual({ a: [1] });
    expect(await outcome(() => new BufferedResponse('{').json())).toEqual(await outcome(() => new Native('{').json()));
  });

  it('reads form bodies by their content type', async () => {
    const init = { headers: { 'content-type': 'application/x-www-form-urlencoded' } };
    expect([...(await new BufferedResponse('a=1&b=2', init).formData())]).toEqual([...(await new Native('a=1&b=2', init).formData())]);
  });

  it('copies a buffer when constructed, as the native constructor does', async () => {
    const source = bytesOf('abc');
    const buffered = new BufferedResponse(source);
    source[0] = 0x7a;
    expect(await buffered.text()).toBe('abc');
  });

  it('gives the same stream on every access, and reading it uses the body', async () => {
    const buffered = new BufferedResponse('stream me');
    const stream = buffered.body;
    expect(buffered.body).toBe(stream);
    expect(new TextDecoder().decode(new Uint8Array(await readStream(buffered)))).toBe('stream me');
    expect(buffered.bodyUsed).toBe(true);
    expect(await outcome(() => buffered.text())).toMatchObject({ error: 'TypeError' });
  });

  it('refuses a body with a null-body status with the native error', async () => {
    for (const status of [204, 205, 304]) {
      for (const body of ['x', '', new Uint8Array(0)]) {
        const expected = await outcome(() => new Native(body, { status }));
        expect(expected).toMatchObject({ error: 'TypeError' });
        expect(await outcome(() => new BufferedResponse(body, { status }))).toEqual(expected);
      }
      expect(new BufferedResponse(null, { status }).status).toBe(status);
    }
  });

  it('refuses an invalid status with the native error', async () => {
    for (const status of [99, 600]) {
      expect(await outcome(() => new BufferedResponse('x', { status }))).toEqual(await outcome(() => new Native('x', { status })));
    }
  });

  it('clones like the native Response, where the runtime has clone', async () => {
    const buffered = new BufferedResponse('twice', { status: 201, headers: { 'x-a': '1' } });
    const copy = buffered.clone();
    expect(head(copy)).toEqual(head(buffered));
    expect([await copy.text(), await buffered.text()]).toEqual(['twice', 'twice']);
    expect(await outcome(() => buffered.clone())).toEqual(
      await outcome(() => {
        const used = new Native('x');
        return used.text().then(() => used.clone());
      }),
    );
  });

  it('keeps instanceof true for native responses once it is the global Response', () => {
    expect(new Native('x')).toBeInstanceOf(BufferedResponse);
    expect(new BufferedResponse('x')).toBeInstanceOf(Native);
  });
});

describe('BufferedResponse.take (the wasi:http writer)', () => {
  it('hands over the bytes once and leaves the body used', async () => {
    const buffered = new BufferedResponse('héllo');
    expect(BufferedResponse.take(buffered)).toEqual(bytesOf('héllo'));
    expect(BufferedResponse.take(buffered)).toBeUndefined();
    expect(buffered.bodyUsed).toBe(true);
    expect(await outcome(() => buffered.text())).toMatchObject({ error: 'TypeError' });
    expect(buffered.body?.locked).toBe(true);
  });

  it('hands over nothing once the body was read through the Fetch API', async () => {
    const buffered = new BufferedResponse('partly read');
    void buffered.body;
    expect(BufferedResponse.take(buffered)).toBeUndefined();
    expect(new TextDecoder().decode(new Uint8Array(await readStream(buffered)))).toBe('partly read');
  });

  it('hands over nothing for native responses', () => {
    expect(BufferedResponse.take(new Native('native'))).toBeUndefined();
  });
});

describe('streaming and empty bodies stay native', () => {
  it('passes a ReadableStream through untouched', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytesOf('data: 1\n\n'));
        controller.enqueue(bytesOf('data: 2\n\n'));
        controller.close();
      },
    });
    const init = { headers: { 'content-type': 'text/event-stream' } };
    const response = new BufferedResponse(stream, init);
    expect(response.body).toBe(stream);
    expect(head(response)).toEqual(head(new Native(new ReadableStream(), init)));
    expect(BufferedResponse.take(response)).toBeUndefined();
    expect(await response.text()).toBe('data: 1\n\ndata: 2\n\n');
    expect(response.bodyUsed).toBe(true);
  });

  it('keeps a null body null', async () => {
    const response = new BufferedResponse(null, { status: 204, headers: { 'x-a': '1' } });
    expect(response.body).toBeNull();
    expect(head(response)).toEqual(head(new Native(null, { status: 204, headers: { 'x-a': '1' } })));
    expect(BufferedResponse.take(response)).toBeUndefined();
    expect(await response.text()).toBe('');
  });

  it('leaves other body types to the native constructor', async () => {
    const form = new URLSearchParams({ a: '1' });
    const response = new BufferedResponse(form);
    expect(head(response)).toEqual(head(new Native(new URLSearchParams({ a: '1' }))));
    expect(BufferedResponse.take(response)).toBeUndefined();
    expect(await response.text()).toBe('a=1');
  });
});

describe('installed as the global Response', () => {
  it("makes Hono's c.json, c.text and c.body buffered, HEAD included", async () => {
    installBufferedResponse();
    const app = new Hono();
    app.get('/json', (c) => c.json({ a: 1 }, 200, { 'Cache-Control': 'no-store' }));
    app.get('/text', (c) => c.text('plain'));
    app.get('/bytes', (c) => c.body(new Uint8Array([1, 2])));
    for (const [path, expected] of [
      ['/json', '{"a":1}'],
      ['/text', 'plain'],
      ['/bytes', '\u0001\u0002'],
    ] as const) {
      const response = await app.request(path);
      expect(response).toBeInstanceOf(BufferedResponse);
      expect(new TextDecoder().decode(BufferedResponse.take(response))).toBe(expected);
    }
    const head = await app.request('/json', { method: 'HEAD' });
    expect(head.body).toBeNull();
    expect(head.headers.get('cache-control')).toBe('no-store');
  });
});

describe('on a runtime that adds content-length (StarlingMonkey does)', () => {
  /** A stand-in for StarlingMonkey's Response: a known body sets content-length unless present. */
  class LengthAddingResponse extends Native {
    constructor(body?: BodyInit | null, init?: ResponseInit) {
      super(body, init);
      const length = typeof body === 'string' ? bytesOf(body).byteLength : body instanceof Uint8Array ? body.byteLength : undefined;
      if (length !== undefined && !this.headers.has('content-length')) this.headers.set('content-length', String(length));
    }
  }

  it('adds the same content-length, keeps an explicit one, and none for a stream', async () => {
    globalThis.Response = LengthAddingResponse;
    vi.resetModules();
    const { BufferedResponse: OnThatRuntime } = await import('./buffered-response.ts');
    for (const [body, init] of [
      ['héllo €', undefined],
      ['', undefined],
      [new Uint8Array(3), undefined],
      ['x', { headers: { 'content-length': '7' } }],
    ] as const) {
      expect([...new OnThatRuntime(body, init).headers]).toEqual([...new LengthAddingResponse(body, init).headers]);
    }
    expect(new OnThatRuntime('héllo €').headers.get('content-length')).toBe('10');
    expect(new OnThatRuntime(new ReadableStream()).headers.has('content-length')).toBe(false);
  });
});
