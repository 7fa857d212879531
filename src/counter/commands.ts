/**
 * The counter's commands, each declared once: its name, its input (fields and their valibot
 * schemas), a summary, and the domain command it becomes. From this table come the REST routes
 * and their 405s (rest.ts), the server functions (pages/server-functions.ts), their OpenAPI
 * operations (command-operations.ts) and the browser's typed client (static/client/api.ts). gRPC
 * stays proto-first: its methods are written in grpc/service.ts, and a ChangeOperation value of
 * counter.proto names the entry it runs (grpc/messages.ts).
 *
 * Pure data and valibot: the browser bundle imports it.
 */
import * as v from 'valibot';
import type { CounterCommand } from './domain/counter.ts';
import { AMOUNT_MESSAGES, INT32_MAX } from './domain/int32.ts';

/** A positive i32; the domain checks the same rules, this gives the same messages at the edge. */
export const AmountValueSchema = v.pipe(
  v.number(AMOUNT_MESSAGES.notInteger),
  v.integer(AMOUNT_MESSAGES.notInteger),
  v.minValue(1, AMOUNT_MESSAGES.notPositive),
  v.maxValue(INT32_MAX, AMOUNT_MESSAGES.tooLarge),
  v.description('a positive 32-bit integer'),
  v.examples([1]),
);

/** A command's input: field name → the schema of its value (every field is required). */
export type InputFields = Record<string, v.GenericSchema>;

export interface CommandSpec<F extends InputFields> {
  /** One line, imperative: the OpenAPI summary of its operations. */
  summary: string;
  input: F;
  /** Where the REST route reads the fields: the JSON body (default) or the query. Server functions always take a JSON body. */
  restInput?: 'json' | 'query';
  /** AppError codes the decider may refuse it with beyond `validation` (its input), e.g. `domain`. */
  refusals: readonly 'domain'[];
  /** The command that undoes it when sent the same input, if any (the API document links the two). */
  inverse?: string;
  /** The domain command for a validated input. */
  toCommand(input: { [K in keyof F]: v.InferOutput<F[K]> }): CounterCommand;
}

/** Keeps each entry's input type tied to its `toCommand`. */
const command = <F extends InputFields>(spec: CommandSpec<F>): CommandSpec<F> => spec;

export const COUNTER_COMMANDS = {
  increment: command({
    summary: 'Add a positive amount',
    input: { amount: AmountValueSchema },
    refusals: ['domain'],
    inverse: 'decrement',
    toCommand: ({ amount }) => ({ type: 'increment', amount }),
  }),
  decrement: command({
    summary: 'Subtract a positive amount',
    input: { amount: AmountValueSchema },
    restInput: 'query',
    refusals: ['domain'],
    inverse: 'increment',
    toCommand: ({ amount }) => ({ type: 'decrement', amount }),
  }),
  reset: command({
    summary: 'Set the count to 0',
    input: {},
    refusals: [],
    toCommand: () => ({ type: 'reset' }),
  }),
};

export type CommandName = keyof typeof COUNTER_COMMANDS;
type FieldsOf<N extends CommandName> = (typeof COUNTER_COMMANDS)[N]['input'];
/** What a caller sends for command `N` (the browser client's argument type). */
export type CommandInput<N extends CommandName> = { [K in keyof FieldsOf<N>]: FieldsOf<N>[K] extends v.GenericSchema ? v.InferInput<FieldsOf<N>[K]> : never };

export const COMMAND_NAMES = Object.keys(COUNTER_COMMANDS) as CommandName[];

export function isCommandName(name: string | undefined): name is CommandName {
  return name !== undefined && Object.hasOwn(COUNTER_COMMANDS, name);
}

/** The entry of `name`, typed loosely enough to be handled generically (input fields by name). */
export function commandSpec(name: CommandName): CommandSpec<InputFields> {
  return COUNTER_COMMANDS[name] as unknown as CommandSpec<InputFields>;
}

/** `POST /api/counter/<name>`: the REST route of a command. */
export const restCommandPath = (name: CommandName): string => `/api/counter/${name}`;

/** The server function of a command, `<name>_count` (as the specification names increment_count). */
export const serverFunctionName = (name: CommandName): string => `${name}_count`;

/** `POST /api/<name>_count`. */
export const serverFunctionPath = (name: CommandName): string => `/api/${serverFunctionName(name)}`;

/** The query server function: `GET /api/get_counter_view`. */
export const VIEW_SERVER_FUNCTION = { name: 'get_counter_view', path: '/api/get_counter_view' } as const;
