/**
 * Times on every page in the reader's locale and time zone: the server writes UTC into
 * `<time datetime>` (ISO 8601), the browser formats it with Intl (ECMA-402). `data-local="datetime"`
 * shows date and time (sessions), `data-local="time"` the time of day with seconds (the ledger);
 * `data-local="zone"` names the zone in a hint.
 */
const FORMATS = {
  datetime: { dateStyle: 'medium', timeStyle: 'short' },
  time: { timeStyle: 'medium' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

export type LocalTimeStyle = keyof typeof FORMATS;

/** The ISO timestamp in the reader's zone, or undefined if it is not one. */
export function localTime(iso: string, style: LocalTimeStyle): string | undefined {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : new Intl.DateTimeFormat(undefined, FORMATS[style]).format(ms);
}

export function localizeTimes(root: ParentNode = document): void {
  for (const time of root.querySelectorAll<HTMLTimeElement>('time[data-local]')) {
    const style = time.dataset['local'];
    if (style !== 'datetime' && style !== 'time') continue;
    const shown = localTime(time.dateTime, style);
    if (shown !== undefined) time.textContent = shown;
  }
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  for (const hint of root.querySelectorAll<HTMLElement>('[data-local="zone"]')) hint.textContent = `times in ${zone.replace(/_/g, ' ')}`;
}
