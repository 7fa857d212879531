/**
 * valibot → JSON Schema 2020-12 (the dialect of OpenAPI 3.1 and 3.2) with
 * `@valibot/to-json-schema`. Named schemas become `components.schemas` and are referenced as
 * `#/components/schemas/<Name>` instead of the converter's `#/$defs/<Name>`.
 */
import { toJsonSchema, toJsonSchemaDefs, type JsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';

type AnySchema = v.GenericSchema;
const TARGET = 'draft-2020-12' as const;
const COMPONENT_REF = '#/components/schemas/';

/** Rewrites `$defs` references to component references and drops `$schema` (the document sets the dialect once). */
function relocate(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(relocate);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === '$schema' || key === '$defs') continue;
    out[key] = key === '$ref' && typeof inner === 'string' ? inner.replace('#/$defs/', COMPONENT_REF) : relocate(inner);
  }
  return out;
}

export class SchemaSet {
  readonly #named: Record<string, AnySchema>;

  constructor(named: Record<string, AnySchema>) {
    this.#named = named;
  }

  /** Every named schema, for `components.schemas`. */
  components(): Record<string, JsonSchema> {
    return relocate(toJsonSchemaDefs(this.#named, { target: TARGET, errorMode: 'throw' })) as Record<string, JsonSchema>;
  }

  /** A reference to a named schema. */
  ref(name: string): JsonSchema {
    if (!(name in this.#named)) throw new Error(`no schema named ${name}`);
    return { $ref: `${COMPONENT_REF}${name}` };
  }

  /** An inline schema; named schemas inside it become references. */
  inline(schema: AnySchema): JsonSchema {
    return relocate(toJsonSchema(schema, { target: TARGET, errorMode: 'throw', definitions: this.#named })) as JsonSchema;
  }
}
