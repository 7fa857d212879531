/** The page's elements the client script drives, found by the ids and attributes page.tsx renders. */
import { commandSpec, isCommandName, type CommandInput, type CommandName } from '../../src/counter/commands.ts';

function byId<T extends HTMLElement>(id: string, type: { new (): T }): T {
  const element = document.getElementById(id);
  if (!(element instanceof type)) throw new Error(`#${id} is missing from the page`);
  return element;
}

export function findElements() {
  return {
    hero: byId('hero', HTMLElement),
    writesNote: byId('writes-note', HTMLElement),
    writesSignIn: byId('writes-sign-in', HTMLAnchorElement),
    count: byId('count', HTMLOutputElement),
    revision: byId('revision', HTMLElement),
    realtimeNote: byId('realtime-note', HTMLElement),
    status: byId('status', HTMLElement),
    statusLabel: byId('status-label', HTMLElement),
    batchRange: byId('batch-range', HTMLInputElement),
    batchAmount: byId('batch-amount', HTMLInputElement),
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

/** A button that sends a command: its name, and its input read when it is pressed. */
export interface CommandButton {
  element: HTMLButtonElement;
  name: CommandName;
  input(batchAmount: () => number): CommandInput<CommandName>;
}

/**
 * The buttons marked `data-command="<name>"`, each field's value from `data-<field>`: a number,
 * or `batch` for the batch amount (read at the press: the field may hold anything, and the server's
 * validation answers for it). A name the table does not know is a broken page.
 */
export function findCommandButtons(): CommandButton[] {
  return [...document.querySelectorAll<HTMLButtonElement>('button[data-command]')].map((element) => {
    const name = element.dataset['command'];
    if (!isCommandName(name)) throw new Error(`unknown command ${String(name)} on the page`);
    const fields = Object.keys(commandSpec(name).input);
    return {
      element,
      name,
      input: (batchAmount) =>
        Object.fromEntries(fields.map((field) => [field, element.dataset[field] === 'batch' ? batchAmount() : Number(element.dataset[field])])) as CommandInput<CommandName>,
    };
  });
}
