/** The counter application's public surface, for the wiring code and the other adapters. */
export type { CounterCommand, CounterEvent, CounterState } from './domain/counter.ts';
export { COUNTER_STREAM_ID } from './domain/counter.ts';
export type { CounterDeps, RealtimeConfig } from './application/deps.ts';
export type { RetryPolicy } from './application/retry.ts';
export { DEFAULT_RETRY_POLICY } from './application/retry.ts';
export type { CounterView, EventLog, RealtimeMessage } from './application/view.ts';
export { executeCounterCommand } from './application/execute-command.ts';
export { getCounterView } from './application/get-view.ts';
export { COUNTER_PROJECTION, runCounterProjection, type ProjectionRun } from './application/projection.ts';
export { counterRestRoutes, COUNTER_REST_PATHS, MAX_BODY_BYTES } from './rest.ts';
export { errorEnvelope, errorResponse, methodNotAllowedResponse, notFoundResponse, statusForCode } from '../http/errors.ts';
