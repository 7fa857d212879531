/**
 * The typed client of the server functions, derived from the command table
 * (src/counter/commands.ts): `command(name, input)` takes exactly the fields the table declares for
 * `name`, and posts them to that command's server function. `fetch` is passed in so the same client
 * runs against the routes in tests (src/counter/pages/server-functions.unit.test.ts).
 */
import { commandSpec, serverFunctionPath, VIEW_SERVER_FUNCTION, type CommandInput, type CommandName } from '../../src/counter/commands.ts';

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

export interface ServerFunctionClient {
  getCounterView(): Promise<Response>;
  command<N extends CommandName>(name: N, input: CommandInput<N>): Promise<Response>;
}

export function serverFunctionClient(fetch: Fetch, origin = ''): ServerFunctionClient {
  return {
    getCounterView: () => fetch(`${origin}${VIEW_SERVER_FUNCTION.path}`, { headers: { accept: 'application/json' }, credentials: 'same-origin' }),
    command: (name, input) => {
      // A command without fields sends no body (its server function reads none).
      const body = Object.keys(commandSpec(name).input).length === 0 ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(input) };
      return fetch(`${origin}${serverFunctionPath(name)}`, { method: 'POST', credentials: 'same-origin', ...body });
    },
  };
}
