/**
 * The pool's admission limits from the configuration and what warming measured, logged once at
 * start (`admission_limits`) so an operator sees how the instance limit was reached.
 */
import type { HostConfig } from '../config.ts';
import type { HostLogger } from '../log.ts';
import { defaultBudgetMiB, instanceLimit, instanceSizeMiB, memoryLimit, queueLength, streamingLimit, type WarmMeasurement } from './memory-budget.ts';

export interface AdmissionLimits {
  /** upper bound on instances alive at once */
  max: number;
  /** most instances held by exchanges of the `stream` lane at once (default: `max`) */
  streamMax?: number;
  /** most exchanges waiting in each of the `request` and `stream` lanes (default: unbounded) */
  queueLength?: number;
  /** milliseconds an exchange of those lanes waits for an instance at most (default: no deadline) */
  queueWaitMs?: number;
}
const MiB = 1_048_576;

/** An instance's size when none was warmed to measure (--instances-min 0): about what one takes at start. */
const UNMEASURED_INSTANCE_MIB = 16;

/**
 * `processShare`: the part of the process this host is (1 for the CLI, 1/N for each of N worker
 * threads); undefined for a host embedded in another process (tests), where RSS is not the
 * host's: there `auto` leaves the budget off and --instances-max alone decides.
 */
export function admissionLimits(config: HostConfig, measured: WarmMeasurement, processShare: number | undefined, logger: HostLogger): Required<AdmissionLimits> {
  const limit = memoryLimit();
  const budgetMiB = config.memoryBudgetMiB === 'auto' ? (processShare === undefined ? 0 : defaultBudgetMiB(limit)) : config.memoryBudgetMiB;
  const warmed = measured.rssAfterBytes.length;
  const instanceMiB = warmed === 0 ? UNMEASURED_INSTANCE_MIB : instanceSizeMiB(measured);
  const rssMiB = (warmed === 0 ? measured.rssBeforeBytes : measured.rssAfterBytes[warmed - 1]!) / MiB;
  const share = processShare ?? 1;
  // A worker thread gets its share of the budget and is charged its share of the process's baseline.
  const baselineMiB = (rssMiB - warmed * instanceMiB) * share;
  const max =
    budgetMiB > 0
      ? instanceLimit({ budgetMiB: budgetMiB * share, baselineMiB, instanceMiB, instancesMax: config.instancesMax, instancesMin: config.instancesMin })
      : config.instancesMax;
  const limits = {
    max,
    streamMax: streamingLimit(max, config.instancesStreaming, config.transport === 'grpc'),
    queueLength: queueLength(max, config.admissionQueue),
    queueWaitMs: config.admissionWaitMs,
  };
  logger.log('info', budgetMiB > 0 ? 'guest instances limited by the memory budget' : 'guest instances limited by --instances-max (no memory budget)', {
    code: 'admission_limits',
    memory_budget_mib: budgetMiB,
    memory_limit_mib: Math.round(limit.bytes / MiB),
    memory_limit_source: limit.source,
    baseline_mib: Math.round(baselineMiB),
    instance_mib: Math.round(instanceMiB * 10) / 10,
    instances_max: limits.max,
    instances_streaming: limits.streamMax,
    queue_length: limits.queueLength,
    queue_wait_ms: limits.queueWaitMs,
  });
  return limits;
}
