/**
 * Presentation rules shared by the server-rendered page (page.tsx) and the client script
 * (static/client/), so both render an event, a count and a status the same way.
 */
import type { EventLog } from '../counter/application/view.ts';

export type UiStatus = 'ready' | 'syncing' | 'live' | 'error';

export const STATUS_LABELS: Record<UiStatus, string> = {
  ready: 'Ready',
  syncing: 'Syncing…',
  live: 'Live',
  error: 'Error',
};

/** Batch amount bounds of the slider (the number field may hold anything; the server validates). */
export const BATCH_MIN = 1;
export const BATCH_MAX = 100;
export const BATCH_DEFAULT = 10;

const EVENT_LABELS: Record<string, string> = {
  incremented: 'Increment',
  decremented: 'Decrement',
  reset_performed: 'Reset',
};

export function eventLabel(eventType: string): string {
  return EVENT_LABELS[eventType] ?? eventType;
}

/** CSS modifier for an event row: `up`, `down`, `reset` or `other`. */
export function eventTone(eventType: string): string {
  if (eventType === 'incremented') return 'up';
  if (eventType === 'decremented') return 'down';
  if (eventType === 'reset_performed') return 'reset';
  return 'other';
}

/** A count with a typographic minus sign and thin grouping, e.g. `−1 234`. */
export function formatCount(count: number): string {
  const digits = Math.abs(count)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '\u2009');
  return count < 0 ? `\u2212${digits}` : digits;
}

/** Size step of the count for its shown length, so ten digits still fit a phone's width. */
export function countSize(shown: string): 's' | 'm' | 'l' {
  if (shown.length <= 5) return 's';
  return shown.length <= 9 ? 'm' : 'l';
}

/** `HH:MM:SS` in UTC (the server cannot know the reader's zone, and both sides must agree). */
export function formatTime(recordedAt: string): string {
  const date = new Date(recordedAt);
  if (Number.isNaN(date.getTime())) return recordedAt;
  return date.toISOString().slice(11, 19);
}

/** The stored payload as compact JSON text (it is JSON already; re-printed to normalise spacing). */
export function formatPayload(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload));
  } catch {
    return payload;
  }
}

export interface LedgerRow {
  tone: string;
  label: string;
  sequence: string;
  revision: string;
  time: string;
  datetime: string;
  payload: string;
}

export function ledgerRow(event: EventLog): LedgerRow {
  return {
    tone: eventTone(event.event_type),
    label: eventLabel(event.event_type),
    sequence: `#${event.sequence}`,
    revision: `rev ${event.revision}`,
    time: formatTime(event.recorded_at),
    datetime: event.recorded_at,
    payload: formatPayload(event.payload),
  };
}
