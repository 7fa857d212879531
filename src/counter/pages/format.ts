/**
 * Presentation rules shared by the server-rendered page (page.tsx) and the client script
 * (static/client/), so both render an event, a count and a status the same way.
 */
import type { EventLog } from '../application/view.ts';
import type { CounterEventType } from '../domain/counter.ts';
import { INT32_MAX } from '../domain/int32.ts';

export type UiStatus = 'ready' | 'syncing' | 'live' | 'error';

export const STATUS_LABELS: Record<UiStatus, string> = {
  ready: 'Ready',
  syncing: 'Syncing…',
  live: 'Live',
  error: 'Error',
};

/**
 * Batch amount bounds: exactly what the API accepts (a positive i32, docs/api.md), so the field's
 * limits, the slider and the card's text agree with the server.
 */
export const BATCH_MIN = 1;
export const BATCH_MAX = INT32_MAX;
export const BATCH_DEFAULT = 10;

/**
 * The slider's stops, 1–9 then 1-2-…-9 per power of ten, ending at BATCH_MAX: a linear slider
 * over two billion values could not pick a small amount, so it moves on a 1-2-5-like scale.
 */
export const BATCH_STOPS: readonly number[] = (() => {
  const stops: number[] = [];
  for (let power = 1; power < BATCH_MAX; power *= 10) {
    for (let digit = 1; digit <= 9 && digit * power < BATCH_MAX; digit++) stops.push(digit * power);
  }
  stops.push(BATCH_MAX);
  return stops;
})();

/** The slider stop for an amount: the largest stop not above it (the first for anything smaller). */
export function stopFor(amount: number): number {
  let index = 0;
  while (index + 1 < BATCH_STOPS.length && BATCH_STOPS[index + 1]! <= amount) index++;
  return index;
}

/** Whether the API would take this amount. */
export function isBatchAmount(value: number): boolean {
  return Number.isInteger(value) && value >= BATCH_MIN && value <= BATCH_MAX;
}

/**
 * How each event type reads: a label (for a screen reader), a tone (the row's CSS modifier) and
 * the change in words. Keyed by every event type, so a new one fails the type check until it
 * says how it reads; a type this build does not know (from a newer server) reads as its name.
 */
const EVENT_PRESENTATION: Readonly<Record<CounterEventType, { label: string; tone: string; change(payload: string): string | undefined }>> = {
  incremented: { label: 'Increment', tone: 'up', change: (payload) => amountChange('+', payload) },
  decremented: { label: 'Decrement', tone: 'down', change: (payload) => amountChange('\u2212', payload) },
  reset_performed: { label: 'Reset', tone: 'reset', change: () => 'reset \u2192 0' },
};

function presentationOf(eventType: string) {
  return Object.hasOwn(EVENT_PRESENTATION, eventType) ? EVENT_PRESENTATION[eventType as CounterEventType] : undefined;
}

/** A count with a typographic minus sign and thin grouping, e.g. `−1 234`. */
export function formatCount(count: number): string {
  return signed(count, '\u2009');
}

/**
 * An amount or count inside a sentence or a button: grouped with a narrow no-break space, so
 * a line breaks between words, never inside a number.
 */
export function formatAmount(value: number): string {
  return signed(value, '\u202f');
}

function signed(value: number, separator: string): string {
  const digits = Math.abs(value)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, separator);
  return value < 0 ? `\u2212${digits}` : digits;
}

/** Size step of the count for its shown length, so ten digits still fit a phone's width. */
export function countSize(shown: string): 's' | 'm' | 'l' {
  if (shown.length <= 5) return 's';
  return shown.length <= 9 ? 'm' : 'l';
}

/**
 * `HH:MM:SS UTC`: what the server writes inside `<time datetime>`; the client script replaces it
 * with the reader's local time (static/client/local-times.ts), the rule of every page.
 */
function formatTime(recordedAt: string): string {
  const date = new Date(recordedAt);
  if (Number.isNaN(date.getTime())) return recordedAt;
  return `${date.toISOString().slice(11, 19)} UTC`;
}

function payloadNumber(payload: string, field: string): number | undefined {
  try {
    const parsed: unknown = JSON.parse(payload);
    const value = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)[field] : undefined;
    return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An event in words: `+5 → 12`, `−2 → 10`, `reset → 0`. Increments and decrements record the
 * count they left in `value` (docs/api.md); older events carry only the amount (`+5`).
 */
export function describeEvent(event: Pick<EventLog, 'event_type' | 'payload'>): string {
  const presentation = presentationOf(event.event_type);
  return presentation?.change(event.payload) ?? presentation?.label ?? event.event_type;
}

function amountChange(sign: string, payload: string): string | undefined {
  const amount = payloadNumber(payload, 'amount');
  if (amount === undefined) return undefined;
  const value = payloadNumber(payload, 'value');
  const change = `${sign}${formatAmount(amount)}`;
  return value === undefined ? change : `${change} \u2192 ${formatAmount(value)}`;
}

export interface LedgerRow {
  tone: string;
  /** what happened, for a screen reader: "Increment" */
  label: string;
  /** the counter's own revision, `#6` (the global sequence jumps when other streams write) */
  revision: string;
  change: string;
  time: string;
  datetime: string;
  /** `you` when the viewer's session sent it (the event's `user_id`); else nothing */
  by: string | undefined;
}

/** `viewerId`: the user id of the page's session, once the client knows it (the server renders for everyone alike). */
export function ledgerRow(event: EventLog, viewerId?: string): LedgerRow {
  return {
    tone: presentationOf(event.event_type)?.tone ?? 'other',
    label: presentationOf(event.event_type)?.label ?? event.event_type,
    revision: `#${event.revision}`,
    change: describeEvent(event),
    time: formatTime(event.recorded_at),
    datetime: event.recorded_at,
    by: viewerId !== undefined && event.user_id === viewerId ? 'you' : undefined,
  };
}

/** What the page says instead of the command buttons when COUNTER_WRITES asks for a sign-in the viewer lacks. */
export const WRITES_NOTES = {
  'sign-in': 'Sign in to change the count',
  passkey: 'Sign in with a passkey to change the count',
} as const;

/** Which sign-in the viewer lacks under `policy`, if any: none for `anyone`; a passkey (aal2) for `aal2`. */
export function missingSignIn(policy: string, session: { authenticated: boolean; aal?: string | undefined }): keyof typeof WRITES_NOTES | undefined {
  if (policy === 'anyone') return undefined;
  if (!session.authenticated) return 'sign-in';
  return policy === 'aal2' && session.aal !== 'aal2' ? 'passkey' : undefined;
}

/** The counter's revision: that of its newest event (0 before the first). */
export function counterRevision(events: readonly EventLog[]): number {
  return events[0]?.revision ?? 0;
}
