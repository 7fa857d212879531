/**
 * The counter page, rendered on the server with Hono JSX from the current CounterView. The client
 * script (static/client/main.ts) takes it over: it reads the embedded view, wires the controls
 * and keeps the page live. Element ids here are the contract with the client script; a command
 * button says its command and input in `data-command` and `data-<field>` (static/client/elements.ts).
 */
import type { FC } from 'hono/jsx';
import type { CounterView } from '../application/view.ts';
import {
  BATCH_DEFAULT,
  BATCH_MAX,
  BATCH_MIN,
  BATCH_STOPS,
  counterRevision,
  countSize,
  formatAmount,
  formatCount,
  ledgerRow,
  STATUS_LABELS,
  stopFor,
  WRITES_NOTES,
} from './format.ts';
import type { CounterWrites } from '../../config.ts';
import { AccountMenu, Document, Topbar, type PageAssets } from '../../web/shell.tsx';

/** JSON inside <script>: `<`, `>`, `&` and line separators escaped so the text cannot end the element. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const Ledger: FC<{ view: CounterView }> = ({ view }) => (
  <section class="card ledger" aria-labelledby="ledger-title">
    <div class="card-head">
      <h2 id="ledger-title">Latest events</h2>
      <span class="hint">
        newest first · <span data-local="zone">times in UTC</span>
      </span>
    </div>
    <ol id="ledger" class="ledger-list">
      {view.latest_events.map((event) => {
        const row = ledgerRow(event);
        return (
          <li class={`event event-${row.tone}`}>
            <span class="event-rev" title="revision of the counter">
              {row.revision}
            </span>
            <span class="event-change">
              <span class="visually-hidden">{row.label}: </span>
              {row.change}
            </span>
            <time class="event-time" datetime={row.datetime} data-local="time">
              {row.time}
            </time>
          </li>
        );
      })}
    </ol>
    <p id="ledger-empty" class="empty" hidden={view.latest_events.length > 0}>
      No events yet. Press +1 to record the first one.
    </p>
  </section>
);

const Batch: FC = () => (
  <section class="card batch" aria-labelledby="batch-title">
    <div class="card-head">
      <h2 id="batch-title">Batch</h2>
      <span id="batch-range-hint" class="hint">
        {formatAmount(BATCH_MIN)}–{formatAmount(BATCH_MAX)}
      </span>
    </div>
    <div class="batch-amount">
      <label for="batch-range">Amount</label>
      <input
        id="batch-range"
        type="range"
        min="0"
        max={BATCH_STOPS.length - 1}
        step="1"
        value={stopFor(BATCH_DEFAULT)}
        aria-valuetext={String(BATCH_DEFAULT)}
        aria-describedby="batch-range-hint"
      />
      <label class="visually-hidden" for="batch-amount">
        Amount (number)
      </label>
      <input id="batch-amount" type="number" min={BATCH_MIN} max={BATCH_MAX} step="1" value={BATCH_DEFAULT} inputmode="numeric" aria-describedby="batch-range-hint" />
    </div>
    <div class="batch-buttons">
      <button id="batch-decrement" type="button" class="button button-quiet" data-command="decrement" data-amount="batch">
        <span class="batch-label">
          Subtract <span class="batch-value">{BATCH_DEFAULT}</span>
        </span>
      </button>
      <button id="batch-increment" type="button" class="button button-primary" data-command="increment" data-amount="batch">
        <span class="batch-label">
          Add <span class="batch-value">{BATCH_DEFAULT}</span>
        </span>
      </button>
    </div>
  </section>
);

/**
 * The session is not read here: the client asks /api/auth/session after the first paint, and
 * under a `writes` policy other than `anyone` shows the sign-in note instead of the buttons when
 * the viewer lacks the sign-in it asks for (static/client/writes.ts).
 */
export const CounterPage: FC<{ view: CounterView; assets: PageAssets; writes: CounterWrites }> = ({ view, assets, writes }) => (
  <Document title="Counter" description="An event-sourced counter, live across every open tab." script={assets.script} assets={assets}>
    <Topbar icon={assets.icon}>
      {/* Not a live region: it changes on every click; failures are announced by the error panel. */}
      <p id="status" class="status" data-status="ready">
        <span class="status-dot" aria-hidden="true"></span>
        <span class="visually-hidden">Status: </span>
        <span id="status-label">{STATUS_LABELS.ready}</span>
      </p>
      <AccountMenu session={{ state: 'unknown' }} />
    </Topbar>

    <section class="card hero" aria-labelledby="count-label" id="hero" data-writes={writes}>
      <h1 id="count-label" class="eyebrow">
        Current count
      </h1>
      <output id="count" class="count" aria-live="polite" aria-atomic="true" data-count={String(view.count)} data-size={countSize(formatCount(view.count))}>
        {formatCount(view.count)}
      </output>
      <p class="meta">
        <span>
          revision <span id="revision">{counterRevision(view.latest_events)}</span>
        </span>
        <span id="realtime-note">{view.realtime_enabled ? 'live updates on' : 'live updates off'}</span>
      </p>
      {/* biome-ignore lint/a11y/useSemanticElements: a labelled group of buttons outside any form; a fieldset would need a legend. */}
      <div class="steps" role="group" aria-label="Change the count by one">
        <button id="decrement-one" type="button" class="button step" aria-label="Decrement by 1" data-command="decrement" data-amount="1">
          −1
        </button>
        <button id="reset" type="button" class="button step step-reset" aria-label="Reset to 0" data-command="reset">
          Reset
        </button>
        <button id="increment-one" type="button" class="button step step-up" aria-label="Increment by 1" data-command="increment" data-amount="1">
          +1
        </button>
      </div>
      <p id="writes-note" class="writes-note" hidden>
        <a id="writes-sign-in" class="button button-primary" href="/login?next=%2F">
          {WRITES_NOTES['sign-in']}
        </a>
      </p>
    </section>

    <div id="error-panel" class="error-panel" role="alert" hidden>
      <div>
        <strong id="error-title">Something went wrong</strong>
        <p id="error-message"></p>
      </div>
      <button id="error-dismiss" type="button" class="button button-quiet">
        Dismiss
      </button>
    </div>

    <div class="grid">
      <Batch />
      <Ledger view={view} />
    </div>

    <footer class="footer">
      Event-sourced on a WebAssembly component · <a href="/api/get_counter_view">view JSON</a>
    </footer>
    <script id="initial-view" type="application/json" dangerouslySetInnerHTML={{ __html: scriptSafeJson(view) }}></script>
  </Document>
);
