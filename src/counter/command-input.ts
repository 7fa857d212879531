/**
 * A command's input as each surface carries it, validated against the command's fields
 * (commands.ts): a JSON body (REST, server functions), the query (REST), or values already
 * decoded (gRPC). Every rejection is an AppError with a public message naming what was wrong;
 * the same field gets the same message on every surface.
 */
import type { Context } from 'hono';
import * as v from 'valibot';
import { AppError } from '../errors.ts';
import { COMMAND_NAMES, commandSpec, type CommandName, type InputFields } from './commands.ts';
import type { CounterCommand } from './domain/counter.ts';
import { profileMark } from '../platform/profile.ts';

/** Field values, checked. */
export type CommandInputValues = Record<string, unknown>;

/** What an absent field reads as, so that its own check runs (valibot skips an absent optional key without a default). */
const ABSENT = Symbol('absent');

/** A field that must be present: `<name> is required` before its own rules. */
const requiredField = (name: string, schema: v.GenericSchema) =>
  v.pipe(
    v.optional(v.unknown(), ABSENT),
    v.check((value) => value !== undefined && value !== ABSENT, `${name} is required`),
    schema,
  );

/** `"amount" (a positive 32-bit integer)`, and `"a" … and "b" …` for several. */
function fieldWords(fields: InputFields): string {
  const words = Object.entries(fields).map(([name, schema]) => {
    const description = v.getDescription(schema);
    return description === undefined ? `"${name}"` : `"${name}" (${description})`;
  });
  return words.length <= 1 ? (words[0] ?? 'no fields') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** The fields as one object schema: each required, each with its own messages; other keys are ignored. */
function fieldsSchema(fields: InputFields) {
  return v.object(Object.fromEntries(Object.entries(fields).map(([name, schema]) => [name, requiredField(name, schema)])));
}

interface InputSchemas {
  /** the fields as given (query, gRPC) */
  fields: v.GenericSchema<unknown, CommandInputValues>;
  /** a JSON body: an object holding the fields, with one message for anything else */
  body: v.GenericSchema<unknown, CommandInputValues>;
}

function inputSchemas(name: CommandName): InputSchemas {
  const { input } = commandSpec(name);
  const fields = fieldsSchema(input);
  const notObject = `request body must be a JSON object with ${fieldWords(input)}`;
  const body = v.pipe(
    v.unknown(),
    v.check((value) => typeof value === 'object' && value !== null && !Array.isArray(value), notObject),
    fields,
  );
  return { fields, body };
}

/** One pair per command, built at start-up (the component snapshot holds them). */
const SCHEMAS = Object.fromEntries(COMMAND_NAMES.map((name) => [name, inputSchemas(name)])) as Record<CommandName, InputSchemas>;

function validated<T>(schema: v.GenericSchema<unknown, T>, input: unknown): T {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return result.output;
  throw new AppError('validation', result.issues[0].message);
}

/** The schema a command's JSON body is parsed with (its OpenAPI operation names it). */
export function commandBodySchema(name: CommandName): v.GenericSchema<unknown, CommandInputValues> {
  return SCHEMAS[name].body;
}

/** Whether a command takes any input at all (a command without fields reads no body and no query). */
export function takesInput(name: CommandName): boolean {
  return Object.keys(commandSpec(name).input).length > 0;
}

/** `application/json`, with or without parameters such as charset. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  const mediaType = contentType?.split(';', 1)[0]?.trim().toLowerCase();
  return mediaType === 'application/json';
}

/** 415 unless the request says `application/json`. */
export function requireJsonMediaType(c: Context): void {
  if (!isJsonMediaType(c.req.header('content-type'))) throw new AppError('unsupported_media_type', 'content type must be application/json');
}

/** A parsed JSON value as the command's input (the server functions' validator hands it over parsed). */
export function inputFromJsonValue(name: CommandName, body: unknown): CommandInputValues {
  return validated(SCHEMAS[name].body, body);
}

/** Reads the command's input from a JSON body (415 for other media types, 400 for bad JSON or values). */
export async function inputFromJsonBody(c: Context, name: CommandName): Promise<CommandInputValues> {
  requireJsonMediaType(c);
  let body: unknown;
  try {
    const text = await c.req.text();
    GUEST_PROFILE: profileMark('body read');
    body = JSON.parse(text);
  } catch {
    throw new AppError('validation', 'request body must be valid JSON');
  }
  GUEST_PROFILE: profileMark('JSON parse');
  const input = inputFromJsonValue(name, body);
  GUEST_PROFILE: profileMark('validation');
  return input;
}

/**
 * Reads the command's input from the query: each field exactly once. Query values are text: only
 * an optional sign and digits count as a number, with a fraction of zeros (`13905.0`: an integer
 * to JSON Schema, as a client serializing a float writes it); any other text goes to the field's
 * schema as text (which, for a number field, answers with its "must be an integer" message).
 */
export function inputFromQuery(c: Context, name: CommandName): CommandInputValues {
  const values: CommandInputValues = {};
  for (const field of Object.keys(commandSpec(name).input)) {
    const given = c.req.queries(field) ?? [];
    if (given.length > 1) throw new AppError('validation', `${field} must be given once`);
    const text = given[0];
    if (text !== undefined) values[field] = /^[+-]?\d{1,20}(?:\.0{1,20})?$/.test(text) ? Number(text) : text;
  }
  return validated(SCHEMAS[name].fields, values);
}

/** Values a surface decoded itself (gRPC's protobuf fields), checked by the same rules. */
export function inputFromValues(name: CommandName, values: CommandInputValues): CommandInputValues {
  return validated(SCHEMAS[name].fields, values);
}

/** The domain command for a validated input. */
export function domainCommand(name: CommandName, input: CommandInputValues): CounterCommand {
  return commandSpec(name).toCommand(input);
}
