/**
 * The counter page's client: takes over the server-rendered page (src/counter/pages/page.tsx),
 * sends commands through the typed server functions, and follows the live stream.
 */
import { serverFunctions, settle, type Outcome } from './api.ts';
import { bindBatch } from './batch.ts';
import { findCommandButtons, findElements } from './elements.ts';
import { connectLive } from './live.ts';
import { localizeTimes } from './local-times.ts';
import { hideError, renderStatus, renderView, showError } from './render.ts';
import { startSessionMenu } from './session-menu.ts';
import { StatusTracker } from './status.ts';
import { WritesGate } from './writes.ts';
import { ViewStore } from './view-store.ts';
import { CounterViewSchema, parseJson } from './view-schema.ts';

const el = findElements();
const initial = parseJson(CounterViewSchema, el.initialView.textContent ?? '');
if (!initial) throw new Error('the page carries no initial counter view');

const store = new ViewStore(initial);
/** The signed-in user, once the session is known: their own events say "you" in the ledger. */
let viewerId: string | undefined;
store.onChange((view) => renderView(el, view, true, viewerId));
const writes = new WritesGate(el);
const status = new StatusTracker((s) => renderStatus(el, s));
const batchAmount = bindBatch(el);

/** Runs one server function: the answer updates the page at once (if newer than what is shown). */
async function run(call: () => Promise<Response>): Promise<void> {
  status.begin();
  const outcome: Outcome = await settle(call);
  status.end(!outcome.ok && outcome.serious);
  if (outcome.ok) {
    store.offer(outcome.view);
    hideError(el);
  } else if (outcome.code === 'unauthorized') {
    // COUNTER_WRITES asks for a session this page does not have (any more): say so, not an error.
    writes.refused();
  } else {
    showError(el, outcome);
  }
}

// Every command button says which command it sends (`data-command`) and each field's value
// (`data-<field>`: a number, or `batch` for the batch amount); page.tsx renders them.
for (const button of findCommandButtons()) {
  button.element.addEventListener('click', () => void run(() => serverFunctions.command(button.name, button.input(batchAmount))));
}
el.errorDismiss.addEventListener('click', () => hideError(el));

// A page restored from the back/forward cache, or shown again without a live stream, may be stale.
const refresh = (): void => void run(() => serverFunctions.getCounterView());
window.addEventListener('pageshow', (event) => {
  if (event.persisted) refresh();
});

localizeTimes();
renderView(el, store.current, false);
if (store.current.realtime_enabled) {
  connectLive(() => store.current.last_sequence, {
    view: (next) => store.offer(next),
    state: (state) => {
      status.stream(state);
      // The stream recovered: a failure it reported is over.
      if (state === 'open' && el.errorPanel.dataset['code'] === 'stream') hideError(el);
    },
    failure: (message) => showError(el, { code: 'stream', message }),
  });
} else {
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') refresh();
  });
}
startSessionMenu((session) => {
  writes.sessionKnown(session);
  viewerId = session.authenticated ? session.user_id : undefined;
  if (viewerId !== undefined) renderView(el, store.current, false, viewerId);
});
document.documentElement.dataset['ready'] = 'true';
