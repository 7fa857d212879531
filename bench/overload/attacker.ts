/**
 * One attack of bench/overload/attacks.ts in a process of its own, started by bench/overload.ts
 * for each row: the attacker's event loop is not the one the probes and the legitimate clients
 * time their answers on, and its CPU is measured apart from theirs.
 *
 *   node bench/overload/attacker.ts <attack> <url> <port> <sse clients>
 *
 * Prints `started` once the attack runs; on a line on stdin, stops it and prints what it saw as
 * one JSON line ({ rejected, notes }), then exits.
 */
import { createInterface } from 'node:readline';
import { ATTACKS } from './attacks.ts';

const [name, url, port, sseClients] = process.argv.slice(2);
const attack = ATTACKS.find((a) => a.name === name);
if (attack === undefined || url === undefined || port === undefined) throw new Error(`usage: attacker.ts <${ATTACKS.map((a) => a.name).join('|')}> <url> <port> <sse clients>`);
const running = await attack.start({ url, port: Number(port) }, { sseClients: Number(sseClients) });
console.log('started');
createInterface({ input: process.stdin }).once('line', () => {
  const seen = { rejected: running.rejected(), notes: running.notes() };
  running.stop();
  console.log(JSON.stringify(seen));
  process.exit(0);
});
