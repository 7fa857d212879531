/**
 * The response cache never serves a stale view across hosts (docs/response-cache.md): clients
 * write on host A while others read on host B in a tight loop, with If-None-Match so that most
 * reads are answered by B's cache (304 from a validated entry). Every read that starts after a
 * write's 200 must show a last_sequence at least that write's. Two processes on PostgreSQL, two
 * on Redis, and one SQLite host with --workers 2 (connections spread over both threads).
 */
import { Agent, request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { startHost, tempDataDir, type HostProcess } from '../../harness/host-process.ts';
import { inCi, isolation, POSTGRES_URL, REDIS_URL, sharedServers } from '../../harness/servers.ts';

const WRITES = 40;
const READERS = 4;

interface Write {
  doneAt: number;
  sequence: number;
}
interface Read {
  startAt: number;
  sequence: number;
}

/** Each client its own kept-alive connection: with --workers 2 the kernel spreads them over the threads. */
const client = () => new Agent({ keepAlive: true, maxSockets: 1 });

interface Answer {
  status: number;
  etag: string | undefined;
  body: string;
}

function call(agent: Agent, url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, etag: res.headers.etag, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

async function writer(url: string, writes: Write[]): Promise<void> {
  const agent = client();
  for (let i = 0; i < WRITES; i++) {
    const response = await call(agent, `${url}/api/counter/increment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":1}' });
    expect(response.status, response.body).toBe(200);
    const view = JSON.parse(response.body) as { last_sequence: number };
    writes.push({ doneAt: performance.now(), sequence: view.last_sequence });
  }
  agent.destroy();
}

/** Reads until `done`; a 304 stands for the body last seen under that ETag. Returns how many 304s. */
async function reader(url: string, reads: Read[], done: () => boolean): Promise<number> {
  const agent = client();
  let etag: string | undefined;
  let sequence = -1;
  let notModified = 0;
  while (!done()) {
    const startAt = performance.now();
    const response = await call(agent, `${url}/api/counter/view`, { headers: etag ? { 'if-none-match': etag } : {} });
    if (response.status === 304) {
      notModified++;
      expect(response.etag).toBe(etag);
    } else {
      expect(response.status, response.body).toBe(200);
      sequence = (JSON.parse(response.body) as { last_sequence: number }).last_sequence;
      etag = response.etag;
    }
    reads.push({ startAt, sequence });
  }
  agent.destroy();
  return notModified;
}

async function expectReadYourWrites(writeUrl: string, readUrl: string): Promise<void> {
  const writes: Write[] = [];
  const reads: Read[] = [];
  let finished = false;
  const readers = Array.from({ length: READERS }, () => reader(readUrl, reads, () => finished));
  await writer(writeUrl, writes).finally(() => (finished = true));
  const notModified = (await Promise.all(readers)).reduce((a, b) => a + b, 0);
  let checked = 0;
  for (const read of reads) {
    const before = writes.filter((w) => w.doneAt < read.startAt).at(-1);
    if (before === undefined) continue;
    checked++;
    expect(read.sequence, `a read started after the write of sequence ${before.sequence} returned ${read.sequence}`).toBeGreaterThanOrEqual(before.sequence);
  }
  // Enough reads started after a write for the check to mean something; how many the readers
  // manage beside the writer is the machine's (25 for 40 writes beside a running suite).
  expect(checked, 'reads that started after some write').toBeGreaterThanOrEqual(WRITES / 4);
  // The cache did answer: validated entries gave 304s during the loop.
  expect(notModified, `304s among ${reads.length} reads`).toBeGreaterThan(0);
}

const unavailable = await sharedServers();
if (unavailable !== undefined && inCi) it('needs PostgreSQL and Redis under CI', () => expect.fail(unavailable));

const hosts: HostProcess[] = [];
const servers = isolation('rcache');
afterAll(async () => {
  await Promise.all(hosts.map((h) => h.stop()));
  await servers.cleanup();
});

async function twoHosts(args: string[]): Promise<[HostProcess, HostProcess]> {
  const pair = await Promise.all([startHost({ args }), startHost({ args })]);
  hosts.push(...pair);
  return pair;
}

describe.runIf(unavailable === undefined)('response cache: read-your-writes across hosts', () => {
  it('two hosts on PostgreSQL: writes on A, cached reads on B', async () => {
    const [a, b] = await twoHosts(['--db', 'postgres', '--postgres-url', POSTGRES_URL, '--postgres-schema', servers.schema(), '--realtime', 'off']);
    await expectReadYourWrites(a.url, b.url);
  });

  it('two hosts on Redis: writes on A, cached reads on B', async () => {
    const [a, b] = await twoHosts(['--db', 'redis', '--redis-url', REDIS_URL, '--redis-prefix', servers.prefix(), '--realtime', 'off']);
    await expectReadYourWrites(a.url, b.url);
  });
});

describe('response cache: read-your-writes across worker threads', () => {
  it('SQLite with --workers 2: writes and cached reads on separate connections', async () => {
    const host = await startHost({ args: ['--workers', '2', '--realtime', 'off'], dataDir: tempDataDir('cache-ryw-') });
    hosts.push(host);
    await expectReadYourWrites(host.url, host.url);
  });
});
