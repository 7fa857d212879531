/** Renders views, the status and failures into the server-rendered page (the same markup page.tsx makes). */
import type { CounterView, EventLog } from '../../src/counter/application/view.ts';
import { counterRevision, countSize, formatCount, ledgerRow, STATUS_LABELS, type UiStatus } from '../../src/counter/pages/format.ts';
import { localTime } from './local-times.ts';
import type { PageElements } from './elements.ts';

const ERROR_TITLES: Record<string, string> = {
  validation: 'Check the amount',
  domain: 'Out of range',
  concurrency: 'Busy, try again',
  store: 'Storage unavailable',
  network: 'Offline',
  stream: 'Live updates interrupted',
};

function span(className: string, text: string): HTMLSpanElement {
  const element = document.createElement('span');
  element.className = className;
  element.textContent = text;
  return element;
}

function eventItem(event: EventLog, viewerId: string | undefined): HTMLLIElement {
  const row = ledgerRow(event, viewerId);
  const item = document.createElement('li');
  item.className = `event event-${row.tone}`;
  const revision = span('event-rev', row.revision);
  revision.title = 'revision of the counter';
  const change = span('event-change', row.change);
  change.prepend(span('visually-hidden', `${row.label}: `));
  if (row.by !== undefined) change.append(span('event-by', ` · ${row.by}`));
  const time = document.createElement('time');
  time.className = 'event-time';
  time.dateTime = row.datetime;
  time.dataset['local'] = 'time';
  time.textContent = localTime(row.datetime, 'time') ?? row.time;
  item.append(revision, change, time);
  return item;
}

/** `viewerId`: the signed-in user, whose own events the ledger marks. */
export function renderView(el: PageElements, view: CounterView, animate: boolean, viewerId?: string): void {
  const shown = formatCount(view.count);
  el.count.textContent = shown;
  el.count.dataset['count'] = String(view.count);
  el.count.dataset['size'] = countSize(shown);
  el.revision.textContent = String(counterRevision(view.latest_events));
  el.realtimeNote.textContent = view.realtime_enabled ? 'live updates on' : 'live updates off';
  el.ledger.replaceChildren(...view.latest_events.map((event) => eventItem(event, viewerId)));
  el.ledgerEmpty.hidden = view.latest_events.length > 0;
  if (animate) {
    // Restart the CSS pulse: remove, force a style flush, add again.
    el.count.classList.remove('pulse');
    void el.count.offsetWidth;
    el.count.classList.add('pulse');
  }
}

export function renderStatus(el: PageElements, status: UiStatus): void {
  el.status.dataset['status'] = status;
  el.statusLabel.textContent = STATUS_LABELS[status];
}

export function showError(el: PageElements, failure: { code: string; message: string }): void {
  el.errorTitle.textContent = ERROR_TITLES[failure.code] ?? 'Something went wrong';
  el.errorMessage.textContent = failure.message;
  el.errorPanel.dataset['code'] = failure.code;
  el.errorPanel.hidden = false;
}

export function hideError(el: PageElements): void {
  el.errorPanel.hidden = true;
  delete el.errorPanel.dataset['code'];
}
