/**
 * The OpenAPI operations of the counter's commands, derived from the command table (commands.ts)
 * for each surface that serves them: the REST routes (rest.ts) and the server functions
 * (pages/server-functions.ts) declare theirs with `commandOperation`. What the two views and the
 * commands share (error codes, the view's answers, the component schemas) lives here too.
 */
import * as v from 'valibot';
import { JSON_ONLY, type LinkSpec, type OperationSpec, type ParameterSpec, type SuccessSpec } from '../http/operation.ts';
import { commandBodySchema } from './command-input.ts';
import { counterViewSchema, eventLogSchema, type CounterView } from './application/view.ts';
import { COMMAND_NAMES, commandSpec, isCommandName, restCommandPath, serverFunctionName, serverFunctionPath, VIEW_SERVER_FUNCTION, type CommandName } from './commands.ts';

/** A read: the store may fail. */
export const READ_ERRORS = ['store', 'internal'] as const;
/**
 * Every command: `unauthorized` without the session COUNTER_WRITES asks for (write-access.ts),
 * `forbidden` the cross-site refusal (src/http/same-site.ts).
 */
const COMMAND_ERRORS = ['unauthorized', 'concurrency', 'forbidden', 'payload_too_large', 'store', 'internal'] as const;

/** What every command operation says of who may send it. */
const WRITERS =
  'Anyone may send it by default. With `COUNTER_WRITES=signed-in` it needs a session (the session cookie; over gRPC, as `cookie` metadata), with `COUNTER_WRITES=aal2` one signed in with a passkey: else 401 `unauthorized`. Sent with a session, its events record the user id (`user_id` in `latest_events`).';

/** The CounterView every example shows. */
export const SAMPLE_VIEW: CounterView = {
  count: 3,
  latest_events: [
    { sequence: 2, event_type: 'incremented', revision: 2, payload: '{"amount":2,"value":3}', recorded_at: '2026-11-24T12:00:01.000Z' },
    { sequence: 1, event_type: 'incremented', revision: 1, payload: '{"amount":1,"value":1}', recorded_at: '2026-11-24T12:00:00.000Z' },
  ],
  last_sequence: 2,
  realtime_enabled: true,
};

const view = (description: string): SuccessSpec => ({ kind: 'json', schema: 'CounterView', description, example: SAMPLE_VIEW });

/** GET reads the Node host may answer from its response cache (docs/response-cache.md). */
export const cachedView = (description: string): Record<string, SuccessSpec> => ({
  '200': { kind: 'json', schema: 'CounterView', description: `${description}; the Node host's response cache adds an ETag`, headers: ['ETag?'], example: SAMPLE_VIEW },
  '304': { kind: 'empty', description: 'Not Modified (RFC 9110 §15.4.5): `If-None-Match` matched the cached ETag (the Node host with its response cache)', headers: ['ETag'] },
});

export const IF_NONE_MATCH: ParameterSpec = {
  name: 'If-None-Match',
  in: 'header',
  description: 'ETags of a copy the client holds (RFC 9110 §13.1.2); a match or `*` gets 304 from the Node host cache',
  schema: v.string(),
};

const pascal = (words: string) => words.replace(/(?:^|_)([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** The component schema of a command's JSON body, named by its fields: `{amount}` → `AmountBody`. */
function bodySchemaName(name: CommandName): string {
  return `${Object.keys(commandSpec(name).input).map(pascal).join('')}Body`;
}

/** The bodies of the commands that take fields; commands with the same fields share one. */
const COMMAND_BODIES: ReadonlyMap<string, v.ObjectEntries> = (() => {
  const bodies = new Map<string, v.ObjectEntries>();
  for (const name of COMMAND_NAMES) {
    const { input } = commandSpec(name);
    if (Object.keys(input).length === 0) continue;
    const schemaName = bodySchemaName(name);
    const earlier = bodies.get(schemaName);
    if (earlier === undefined) bodies.set(schemaName, input);
    else if (Object.entries(input).some(([field, schema]) => earlier[field] !== schema)) throw new Error(`two commands name different fields alike (${schemaName})`);
  }
  return bodies;
})();

/** The named schemas the counter's operations refer to. */
export const COUNTER_SCHEMAS: Readonly<Record<string, v.GenericSchema>> = {
  CounterView: counterViewSchema,
  EventLog: eventLogSchema,
  ...Object.fromEntries([...COMMAND_BODIES].map(([name, fields]) => [name, v.object(fields)])),
};

/** A request example per body, from its fields' own examples (Schemathesis sends examples first). */
export const COUNTER_REQUEST_EXAMPLES: Readonly<Record<string, unknown>> = Object.fromEntries(
  [...COMMAND_BODIES].map(([name, fields]) => [
    name,
    Object.fromEntries(Object.entries(fields).map(([field, schema]) => [field, (v.getExamples(schema) as readonly unknown[])[0]])),
  ]),
);

type Surface = 'rest' | 'server function';

interface SurfaceWords {
  tag: OperationSpec['tag'];
  path(name: CommandName): string;
  operationId(name: CommandName): string;
  viewOperationId: string;
  summary(summary: string, name: CommandName): string;
  /** where the command's fields travel on this surface */
  input(name: CommandName): 'json' | 'query';
}

const SURFACES: Record<Surface, SurfaceWords> = {
  rest: {
    tag: 'counter',
    path: restCommandPath,
    operationId: (name) => `${name}Counter`,
    viewOperationId: 'getCounterView',
    summary: (summary, name) => (commandSpec(name).restInput === 'query' ? `${summary} (given in the query)` : summary),
    input: (name) => commandSpec(name).restInput ?? 'json',
  },
  'server function': {
    tag: 'server functions',
    path: serverFunctionPath,
    operationId: serverFunctionName,
    viewOperationId: VIEW_SERVER_FUNCTION.name,
    summary: (summary) => `Server function: ${summary.charAt(0).toLowerCase()}${summary.slice(1)}`,
    input: () => 'json',
  },
};

/** Where a link finds this request's value of `field`. */
const requestValue = (where: 'json' | 'query', field: string) => (where === 'json' ? `$request.body#/${field}` : `$request.query.${field}`);

/** `ViewAfter<Name>` to the surface's query, and `UndoWith<Inverse>` with the same input when the command has an inverse. */
function linksOf(name: CommandName, words: SurfaceWords): Record<string, LinkSpec> {
  const title = pascal(name);
  const links: Record<string, LinkSpec> = { [`ViewAfter${title}`]: { operationId: words.viewOperationId, description: `the view now counts the ${name}` } };
  const inverse = commandSpec(name).inverse;
  if (isCommandName(inverse)) {
    const from = words.input(name);
    const values = Object.fromEntries(Object.keys(commandSpec(name).input).map((field) => [field, requestValue(from, field)]));
    links[`UndoWith${pascal(inverse)}`] = {
      operationId: words.operationId(inverse),
      description: `${inverse} by the same input`,
      ...(words.input(inverse) === 'query' ? { parameters: values } : { requestBody: values }),
    };
  }
  return links;
}

/** The operation of command `name` on `surface`: its path, input, answers and the codes it can fail with. */
export function commandOperation(name: CommandName, surface: Surface): OperationSpec {
  const spec = commandSpec(name);
  const words = SURFACES[surface];
  const fields = Object.entries(spec.input);
  const where = words.input(name);
  const input: Pick<OperationSpec, 'body' | 'parameters'> =
    fields.length === 0
      ? {}
      : where === 'query'
        ? {
            parameters: fields.map(([field, schema]) => ({
              name: field,
              in: 'query',
              required: true,
              description: `${v.getDescription(schema) ?? field}, given once`,
              schema,
            })),
          }
        : { body: { schema: bodySchemaName(name), parsedWith: commandBodySchema(name), mediaTypes: JSON_ONLY, required: true } };
  return {
    method: 'post',
    path: words.path(name),
    operationId: words.operationId(name),
    tag: words.tag,
    summary: words.summary(spec.summary, name),
    description: WRITERS,
    security: 'session',
    ...input,
    success: { '200': view(`the CounterView after the ${name}`) },
    errors: [...(fields.length > 0 ? (['validation'] as const) : []), ...spec.refusals, ...(input.body ? (['unsupported_media_type'] as const) : []), ...COMMAND_ERRORS],
    links: linksOf(name, words),
  };
}
