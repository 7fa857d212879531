/**
 * The document cannot drift from the bodies the routes parse: for every operation of the assembled
 * document with a request body, the published schema (under each media type) names the same
 * properties, and requires the same ones, as the schema the route parses the body with
 * (`body.parsedWith` in the feature's contract). The published schema may say more of each value
 * (what the route checks after parsing); a field added, removed, renamed or made optional on one
 * side only fails here.
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { ApiContract, OperationSpec } from '../http/operation.ts';
import { commandBodySchema } from '../counter/command-input.ts';
import { EMAIL_CHANGE_CONTRACT } from '../auth/rest/email-change-contract.ts';
import { EmailChangeSchema } from '../auth/rest/email-change-routes.ts';
import { API_CONTRACTS } from './contracts.ts';
import { buildOpenApiDocument } from './document.ts';

/** What a body may carry and what it must: over alternatives (a union), any one's fields and those every one requires. */
interface BodyShape {
  properties: string[];
  required: string[];
}

type Json = Record<string, unknown>;

/** A valibot schema as data, for reading its structure. */
interface SchemaParts {
  type: string;
  kind: string;
  entries?: v.ObjectEntries;
  options?: readonly v.GenericSchema[];
  pipe?: readonly SchemaParts[];
}

function merged(alternatives: readonly BodyShape[]): BodyShape {
  const properties = [...new Set(alternatives.flatMap((shape) => shape.properties))].sort();
  return { properties, required: properties.filter((name) => alternatives.every((shape) => shape.required.includes(name))) };
}

/** Whether the route refuses a body without `key` (a plain entry, or one checked present after a default, as the counter's). */
const requiredByRoute = (key: string, entry: v.GenericSchema) => !v.safeParse(v.object({ [key]: entry }), {}).success;

/** The objects a parse schema accepts: the object itself, each option of a union, or the schema a pipe hands the value to. */
function parsedShapes(schema: v.GenericSchema): BodyShape[] {
  const parts = schema as unknown as SchemaParts;
  if (parts.entries) {
    const entries = Object.entries(parts.entries);
    return [{ properties: entries.map(([key]) => key), required: entries.filter(([key, entry]) => requiredByRoute(key, entry)).map(([key]) => key) }];
  }
  if (parts.options) return parts.options.flatMap(parsedShapes);
  const inner = (parts.pipe ?? []).slice(1).filter((item) => item.kind === 'schema');
  if (inner.length === 0) throw new Error(`cannot read the fields of a ${parts.type} schema`);
  return inner.flatMap((item) => parsedShapes(item as unknown as v.GenericSchema));
}

/** The objects a published JSON Schema allows, its component references followed. */
function publishedShapes(schema: Json, components: Record<string, Json>): BodyShape[] {
  const ref = schema['$ref'];
  if (typeof ref === 'string') {
    const target = components[ref.replace('#/components/schemas/', '')];
    if (!target) throw new Error(`no component ${ref}`);
    return publishedShapes(target, components);
  }
  const alternatives = (schema['anyOf'] ?? schema['oneOf']) as Json[] | undefined;
  if (alternatives) return alternatives.flatMap((alternative) => publishedShapes(alternative, components));
  if (schema['type'] !== 'object') throw new Error(`a body published as ${JSON.stringify(schema)}`);
  return [{ properties: Object.keys((schema['properties'] as Json | undefined) ?? {}), required: (schema['required'] as string[] | undefined) ?? [] }];
}

const words = (shape: BodyShape) => `{${shape.properties.map((name) => (shape.required.includes(name) ? name : `${name}?`)).join(', ')}}`;

/** Each operation with a request body, checked; the mismatches, one line each. */
function bodyProblems(contracts: readonly ApiContract[]): { checked: string[]; problems: string[] } {
  const document = buildOpenApiDocument(contracts) as { paths: Record<string, Record<string, Json>>; components: { schemas: Record<string, Json> } };
  const specs = new Map(contracts.flatMap((contract) => contract.operations).map((op) => [op.operationId, op]));
  const checked: string[] = [];
  const problems = new Set<string>();
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations)) {
      const requestBody = operation['requestBody'] as { content: Record<string, { schema: Json }> } | undefined;
      if (!requestBody) continue;
      const id = operation['operationId'] as string;
      const body = specs.get(id)?.body;
      if (!body) throw new Error(`${id}: a request body without its operation's body`);
      checked.push(id);
      const parsed = merged(parsedShapes(body.parsedWith));
      for (const { schema } of Object.values(requestBody.content)) {
        const published = merged(publishedShapes(schema, document.components.schemas));
        if (JSON.stringify(published) !== JSON.stringify(parsed)) problems.add(`${id}: published ${words(published)}, parsed ${words(parsed)}`);
      }
    }
  }
  return { checked, problems: [...problems] };
}

/** The contracts with the email change's parse schema replaced, as if its route had changed it alone. */
function withEmailChangeParsedBy(parsedWith: v.GenericSchema): ApiContract[] {
  const operations = EMAIL_CHANGE_CONTRACT.operations.map(
    (op): OperationSpec => (op.operationId === 'requestEmailChange' && op.body ? { ...op, body: { ...op.body, parsedWith } } : op),
  );
  return API_CONTRACTS.map((contract) => (contract === EMAIL_CHANGE_CONTRACT ? { ...contract, operations } : contract));
}

describe('the published request bodies against the schemas the routes parse them with', () => {
  it('name the same properties, and require the same ones, for every operation with a body', () => {
    const { checked, problems } = bodyProblems(API_CONTRACTS);
    expect(problems).toEqual([]);
    const withBody = API_CONTRACTS.flatMap((contract) => contract.operations)
      .filter((op) => op.body)
      .map((op) => op.operationId);
    expect(checked.sort()).toEqual(withBody.sort());
    expect(checked.length).toBeGreaterThanOrEqual(20);
  });

  it('fails for a field the route parses but the document does not publish', () => {
    const parsedWith = v.object({ ...EmailChangeSchema.entries, reason: v.string() });
    expect(bodyProblems(withEmailChangeParsedBy(parsedWith)).problems).toEqual(['requestEmailChange: published {email, password?}, parsed {email, password?, reason}']);
  });

  it('fails for a field the route requires but the document publishes as optional', () => {
    const parsedWith = v.object({ ...EmailChangeSchema.entries, password: EmailChangeSchema.entries.password.wrapped });
    expect(bodyProblems(withEmailChangeParsedBy(parsedWith)).problems).toEqual(['requestEmailChange: published {email, password?}, parsed {email, password}']);
  });

  it('reads a field the counter checks present after a default as required', () => {
    expect(words(merged(parsedShapes(commandBodySchema('increment'))))).toBe('{amount}');
  });
});
