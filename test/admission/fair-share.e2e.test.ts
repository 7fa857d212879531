/**
 * The attack: one client keeps 300 HTTP/2 streams of uncached views open on one connection,
 * reopened as they end, beside four ordinary users (one closed loop each, alternating an increment
 * and a cached view, as people's pages do). Each of its streams is a guest run, and the guests of
 * every client share the host's one event loop: its connection ran a quarter of the instances at
 * once (here 10 of 40: a host with the memory for more instances gave it more), one after another,
 * and took most of the loop. With each client's fair share of the guest
 * (host/admission/fair-share.ts), its runs take at most a fifth of the time while the four users
 * are active.
 *
 * What is asserted: the attacker is answered, with fewer runs than the users' increments together
 * (without the share it had about five times as many, and the users kept 17–35% of their
 * throughput); and the users keep at least 60% of their throughput alone. The benchmark's goal is
 * 80% (`npm run bench:overload`, row `h2-streams`); this bound is looser because the throughput of
 * a closed loop on a shared two-core machine drifts by a third between phases of a few seconds.
 *
 * Everyone connects from a loopback address of its own (Linux routes all of 127/8 to loopback):
 * the attacker from 127.0.0.2, in a process of its own so its event loop does not slow the users'
 * client; user i from 127.0.1.i. The users' throughput alone is measured before and after the
 * attack, and the mean of the two is the reference (the machine's other work drifts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { Http1Client } from '../../bench/lib/http1-client.ts';
import { COUNTER_INCREMENT, COUNTER_VIEW } from '../../bench/lib/load.ts';

const ATTACKER = '127.0.0.2';
const USERS = 4;
const PHASE_S = 4;
const PHASE_MS = PHASE_S * 1_000;

/** The attacker, in a child process: 300 streams of uncached views from ATTACKER, reopened as they end; prints its 200 count on stdin's end. */
const ATTACK = `
import http2 from 'node:http2';
import net from 'node:net';
const [port, from] = process.argv.slice(1);
const session = http2.connect('http://127.0.0.1:' + port, { createConnection: () => net.connect({ port: Number(port), host: '127.0.0.1', localAddress: from }) });
session.on('error', () => undefined);
let ok = 0;
let stopped = false;
const get = (i) => {
  if (stopped || session.destroyed) return;
  const stream = session.request({ ':path': '/api/counter/view?attack=' + i });
  stream.on('response', (h) => { if (h[':status'] === 200) ok++; });
  stream.on('error', () => undefined);
  stream.resume();
  stream.once('close', () => get(i + 300));
};
for (let i = 0; i < 300; i++) get(i);
console.log('started');
process.stdin.resume();
process.stdin.once('end', () => { stopped = true; console.log(String(ok)); session.destroy(); });
`;

function startAttacker(port: number): Promise<{ child: ChildProcess; stop(): Promise<number> }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', ATTACK, String(port), ATTACKER], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const next = () => new Promise<string>((resolve) => lines.once('line', resolve));
  return next().then(() => ({
    child,
    async stop() {
      const count = next();
      child.stdin!.end();
      return Number(await count);
    },
  }));
}

/** The users' successful operations per second over `ms`, each from 127.0.1.<i + 1>. */
async function users(url: string, ms: number): Promise<number> {
  let ok = 0;
  const end = performance.now() + ms;
  await Promise.all(
    Array.from({ length: USERS }, async (_, i) => {
      const from = `127.0.1.${i + 1}`;
      const write = new Http1Client(url, COUNTER_INCREMENT, 5_000, from);
      const read = new Http1Client(url, COUNTER_VIEW, 5_000, from);
      try {
        for (let n = 0; performance.now() < end; n++) if ((await (n % 2 === 0 ? write : read).send()) === 200) ok++;
      } finally {
        write.close();
        read.close();
      }
    }),
  );
  return ok / (ms / 1000);
}

describe('one client beside others', () => {
  let host: HostProcess;
  let attacker: ChildProcess | undefined;
  beforeAll(async () => {
    host = await startHost({ args: ['--transport', 'both', '--instances-max', '40', '--memory-budget', '2048'] });
  });
  afterAll(async () => {
    attacker?.kill('SIGKILL');
    await host?.kill();
  });

  it("300 HTTP/2 streams of uncached views get one client's share, and the four users keep theirs", async () => {
    await users(host.url, 1_000); // warms the host and this client up, unmeasured
    const before = await users(host.url, PHASE_MS);
    const attack = await startAttacker(host.port);
    attacker = attack.child;
    await new Promise((r) => setTimeout(r, 500)); // the streams take hold
    const beside = await users(host.url, PHASE_MS);
    const attackerOk = await attack.stop();
    attacker = undefined;
    const after = await users(host.url, PHASE_MS);
    const alone = (before + after) / 2;
    const summary = JSON.stringify({ before, beside, after, attackerOk });
    // It was answered all along: a share, not a refusal.
    expect(attackerOk, summary).toBeGreaterThan(0);
    // Its share of the guest: fewer runs than the four users' increments together (their views are
    // cached, so half their operations are runs). Without the share it had several times as many.
    expect(attackerOk / PHASE_S, summary).toBeLessThanOrEqual(beside / 2);
    // The users keep their share (the mean of before and after, as the machine's other work drifts).
    expect(beside / alone, summary).toBeGreaterThanOrEqual(0.6);
    const delayed = host.logs().filter((l) => l.code === 'client_fair_share');
    expect(delayed.length).toBeGreaterThan(0);
    expect(delayed.every((l) => l.level === 'info')).toBe(true);
  }, 60_000);
});
