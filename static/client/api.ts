/**
 * The server functions, called through the client derived from the command table
 * (server-functions.ts), and their outcomes as data the page can show.
 */
import * as v from 'valibot';
import type { CounterView } from '../../src/counter/application/view.ts';
import { serverFunctionClient } from './server-functions.ts';
import { CounterViewSchema, ErrorEnvelopeSchema } from './view-schema.ts';

export const serverFunctions = serverFunctionClient((input, init) => fetch(input, init));

export type Outcome =
  | { ok: true; view: CounterView }
  /** `serious`: the service or the network failed (not the caller's input). */
  | { ok: false; code: string; message: string; serious: boolean };

/** Waits for a server-function call and turns every result, including a network failure, into an Outcome. */
export async function settle(call: () => Promise<Response>): Promise<Outcome> {
  let response: Response;
  let body: unknown;
  try {
    response = await call();
    body = await response.json();
  } catch {
    return { ok: false, code: 'network', message: 'The server could not be reached. Check the connection and try again.', serious: true };
  }
  if (response.ok) {
    const view = v.safeParse(CounterViewSchema, body);
    if (view.success) return { ok: true, view: view.output };
  } else {
    const envelope = v.safeParse(ErrorEnvelopeSchema, body);
    if (envelope.success) {
      const { code, message } = envelope.output.error;
      return { ok: false, code, message, serious: response.status >= 500 };
    }
  }
  return { ok: false, code: 'internal', message: `Unexpected answer from the server (HTTP ${response.status}).`, serious: true };
}
