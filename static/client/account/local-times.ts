/**
 * Times on the account page in the reader's locale and time zone: the server writes UTC into
 * `<time datetime>` (ISO 8601), the browser formats it with Intl (ECMA-402).
 */
export function localizeTimes(root: ParentNode = document): void {
  const format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  for (const time of root.querySelectorAll<HTMLTimeElement>('time[data-local="datetime"]')) {
    const ms = Date.parse(time.dateTime);
    if (!Number.isNaN(ms)) time.textContent = format.format(ms);
  }
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  for (const hint of root.querySelectorAll<HTMLElement>('[data-local="zone"]')) hint.textContent = `times in ${zone.replace(/_/g, ' ')}`;
}
