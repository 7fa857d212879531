/**
 * A V8 CPU profile (.cpuprofile, as node:inspector's Profiler.stop gives it) summed by where the
 * time went in the host: each sample's time goes to its function's place (the guest's WebAssembly,
 * the transpiled bindings, the host's HTTP and admission, its stores, Node's core…); a native
 * function without a script (a SQLite call, a typed-array copy) counts where its caller does, and
 * one called from the event loop itself (a socket's writev) as Node's core. The profiler's own
 * work (node:inspector) and idle time are left out. The sampler's time deltas are wall time: on
 * a loaded machine they include time the thread waited for a core, so read the shares.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The places, in the order a table lists them. */
export const CPU_PLACES = [
  'guest (WebAssembly: StarlingMonkey running the application)',
  'bindings (jco transpiled glue, build/*/transpiled)',
  'host: guest pool and WASI imports (host/guest, host/wasi)',
  'host: HTTP server, admission, wasi:http exchange (host/http, host/admission, host/net)',
  'host: platform imports (host/app-platform, host/pubsub)',
  'host: leases and stores (host/leases, host/storage, SQLite)',
  'host: other',
  'Node core (node:*, socket writes, timers)',
  'node_modules',
  'V8: garbage collector',
  'V8: (program)',
  'other',
] as const;
export type CpuPlace = (typeof CPU_PLACES)[number];

function placeOf(url: string, functionName: string): CpuPlace | undefined {
  if (functionName === '(garbage collector)') return 'V8: garbage collector';
  if (functionName === '(program)') return 'V8: (program)';
  if (url === '') return undefined;
  if (url.startsWith('wasm://')) return 'guest (WebAssembly: StarlingMonkey running the application)';
  if (url.startsWith('node:')) return 'Node core (node:*, socket writes, timers)';
  if (/\/build\/[^/]+\/transpiled\//.test(url)) return 'bindings (jco transpiled glue, build/*/transpiled)';
  if (url.includes('/node_modules/')) return 'node_modules';
  if (/\/host\/(guest|wasi)\//.test(url)) return 'host: guest pool and WASI imports (host/guest, host/wasi)';
  if (/\/host\/(http|admission|net)\//.test(url)) return 'host: HTTP server, admission, wasi:http exchange (host/http, host/admission, host/net)';
  if (/\/host\/(app-platform|pubsub)\//.test(url)) return 'host: platform imports (host/app-platform, host/pubsub)';
  if (/\/host\/(leases|storage)\//.test(url)) return 'host: leases and stores (host/leases, host/storage, SQLite)';
  if (url.includes('/host/')) return 'host: other';
  return 'other';
}

/** Microseconds of CPU per place in the profile at `path` (idle left out). */
export function cpuByPlace(path: string): Map<CpuPlace, number> {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const places = new Map<number, CpuPlace | 'idle'>();
  const place = (id: number): CpuPlace | 'idle' => {
    const known = places.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id)!;
    const { functionName, url } = node.callFrame;
    const own = functionName === '(idle)' || url === 'node:inspector' ? 'idle' : placeOf(url, functionName);
    const up = parent.get(id);
    const root = up === undefined || byId.get(up)?.callFrame.functionName === '(root)';
    const found = own ?? (up === undefined ? 'other' : root ? 'Node core (node:*, socket writes, timers)' : place(up));
    places.set(id, found);
    return found;
  };
  const totals = new Map<CpuPlace, number>();
  profile.samples.forEach((id, i) => {
    const where = place(id);
    if (where === 'idle') return;
    totals.set(where, (totals.get(where) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return totals;
}
