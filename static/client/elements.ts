/** The page's elements the client script drives, found by the ids page.tsx renders. */

function byId<T extends HTMLElement>(id: string, type: { new (): T }): T {
  const element = document.getElementById(id);
  if (!(element instanceof type)) throw new Error(`#${id} is missing from the page`);
  return element;
}

export function findElements() {
  return {
    count: byId('count', HTMLOutputElement),
    revision: byId('revision', HTMLElement),
    realtimeNote: byId('realtime-note', HTMLElement),
    status: byId('status', HTMLElement),
    statusLabel: byId('status-label', HTMLElement),
    decrementOne: byId('decrement-one', HTMLButtonElement),
    reset: byId('reset', HTMLButtonElement),
    incrementOne: byId('increment-one', HTMLButtonElement),
    batchRange: byId('batch-range', HTMLInputElement),
    batchAmount: byId('batch-amount', HTMLInputElement),
    batchDecrement: byId('batch-decrement', HTMLButtonElement),
    batchIncrement: byId('batch-increment', HTMLButtonElement),
    errorPanel: byId('error-panel', HTMLElement),
    errorTitle: byId('error-title', HTMLElement),
    errorMessage: byId('error-message', HTMLElement),
    errorDismiss: byId('error-dismiss', HTMLButtonElement),
    ledger: byId('ledger', HTMLOListElement),
    ledgerEmpty: byId('ledger-empty', HTMLElement),
    initialView: byId('initial-view', HTMLScriptElement),
  };
}

export type PageElements = ReturnType<typeof findElements>;
