/**
 * Guest instances are a budget, not a reaction: the host may use `--memory-budget` MiB, and the
 * instance limit is what fits in it once the host's own baseline is paid, at the size an
 * instance was measured to take at start. docs/memory.md explains the numbers.
 */
import { readFileSync } from 'node:fs';
import { totalmem } from 'node:os';

const MiB = 1_048_576;
/** The default budget: this fraction of the machine's or the cgroup's memory... */
export const DEFAULT_BUDGET_FRACTION = 0.5;
/** ...at most this, so the default host stays at or under 512 MiB RSS. */
export const DEFAULT_BUDGET_CAP_MIB = 512;
/**
 * The part of (budget − baseline) given to instances; the rest is left for what grows with the
 * load besides them (V8's heap, socket and body buffers, the response cache): measured under the
 * soak, ~170 MiB beyond the idle baseline for 10 busy instances.
 */
export const INSTANCE_SHARE = 0.75;
/** cgroup v1 reports "no limit" as a number close to 2^63. */
const UNLIMITED_V1 = 2 ** 60;

export interface MemoryLimit {
  bytes: number;
  source: 'cgroup v2' | 'cgroup v1' | 'machine';
}

type ReadText = (path: string) => string | undefined;

const readText: ReadText = (path) => {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
};

/** The memory this process may use: its cgroup's limit (v2, else v1) when set and below the machine's, else the machine's. */
export function memoryLimit(read: ReadText = readText, machineBytes = totalmem()): MemoryLimit {
  const v2 = read('/sys/fs/cgroup/memory.max');
  if (v2 !== undefined && /^\d+$/.test(v2) && Number(v2) < machineBytes) return { bytes: Number(v2), source: 'cgroup v2' };
  const v1 = read('/sys/fs/cgroup/memory/memory.limit_in_bytes');
  if (v1 !== undefined && /^\d+$/.test(v1) && Number(v1) < Math.min(UNLIMITED_V1, machineBytes)) return { bytes: Number(v1), source: 'cgroup v1' };
  return { bytes: machineBytes, source: 'machine' };
}

export function defaultBudgetMiB(limit: MemoryLimit): number {
  return Math.min(DEFAULT_BUDGET_CAP_MIB, Math.floor((limit.bytes * DEFAULT_BUDGET_FRACTION) / MiB));
}

/** What warming the pool measured: RSS before and after each instance, and an instance's linear memory. */
export interface WarmMeasurement {
  rssBeforeBytes: number;
  /** RSS after each warmed instance, in order */
  rssAfterBytes: number[];
  linearMemoryBytes: number;
}

/**
 * One instance's share of RSS: the growth per instance after the first (the first also pays for
 * compiling the module), never below its linear memory: a fresh instance has not touched all of
 * it yet (~13 MiB of RSS for 16 MiB), but it does once it serves, and it grows from there.
 */
export function instanceSizeMiB(m: WarmMeasurement): number {
  const floor = m.linearMemoryBytes;
  const n = m.rssAfterBytes.length;
  if (n < 2) return Math.max(m.linearMemoryBytes, MiB) / MiB;
  const growth = (m.rssAfterBytes[n - 1]! - m.rssAfterBytes[0]!) / (n - 1);
  return Math.max(growth, floor, MiB) / MiB;
}

export interface InstanceLimitInput {
  budgetMiB: number;
  /** the host's RSS without instances */
  baselineMiB: number;
  instanceMiB: number;
  /** --instances-max: an explicit upper bound */
  instancesMax: number;
  /** --instances-min: created at start whatever the budget says */
  instancesMin: number;
}

/** The instance limit: what fits in the budget's instance share, within --instances-min and --instances-max, at least 1. */
export function instanceLimit(input: InstanceLimitInput): number {
  const fits = Math.floor(((input.budgetMiB - input.baselineMiB) * INSTANCE_SHARE) / input.instanceMiB);
  return Math.max(1, input.instancesMin, Math.min(input.instancesMax, fits));
}

/**
 * Half the instances for long-lived exchanges, so ordinary requests keep at least the other half
 * (one instance: shared). A gRPC-only port has no ordinary requests to keep them for: all of them.
 */
export function streamingLimit(max: number, configured: number | 'auto', grpcOnly = false): number {
  if (configured !== 'auto') return Math.max(1, Math.min(max, configured));
  if (grpcOnly || max <= 1) return max;
  return Math.min(max - 1, Math.ceil(max / 2));
}

/**
 * Requests that may wait per class: a few rounds of the instances, so a wait stays within a few
 * exchanges' time; at least QUEUE_FLOOR, so a host whose budget holds few instances (a worker
 * thread's half of it) still lets an ordinary burst of clients wait rather than refusing it. A
 * waiting request holds at most its pre-read body (256 KiB): 64 of them fit in the budget's slack.
 */
export const QUEUE_FLOOR = 64;
export function queueLength(max: number, configured: number | 'auto'): number {
  return configured === 'auto' ? Math.max(QUEUE_FLOOR, 4 * max) : configured;
}
