/**
 * Schema versions of what the service stores. Every event carries the version of its payload's
 * shape in its metadata (`{"schema_version":n}`), and every document the version of its body's
 * shape in the body itself (a `schema_version` field). A reader never branches on old shapes: it
 * asks `readEventPayload` / `readDocumentBody` for the current shape, and the record's
 * `StoredShape` turns an older version into the current one, step by step, in ONE place per
 * type (its `upcasters`; Marten's upcasting, EventStoreDB's "events are immutable, readers adapt").
 *
 * A record without a version was written before versions were recorded: version 1, the shape the
 * first versioned release wrote (test/fixtures/stores/ holds such a store). A version above the
 * current one was written by a later release: refused as corrupt (`internal`), never guessed at:
 * an operator who rolls back past a format change restores the backup taken before the upgrade
 * (docs/upgrading.md).
 */
import { AppError } from '../errors.ts';

export type JsonObject = Record<string, unknown>;

/** The field that carries the version, in event metadata and document bodies. */
const SCHEMA_VERSION_FIELD = 'schema_version';

/** The version a record has when it carries none (written before versions were recorded). */
const UNVERSIONED = 1;

export interface StoredShape {
  /** What the record is (an event type, a collection), for error details. */
  readonly name: string;
  /** The version this build writes. */
  readonly version: number;
  /** `upcasters[n]` turns a version-n body into version n+1; one for every n below `version`. */
  readonly upcasters?: Readonly<Record<number, (body: JsonObject) => JsonObject>>;
}

/** A shape at version 1 with no history yet. */
export function firstShape(name: string): StoredShape {
  return { name, version: 1 };
}

/** The metadata of a new event of `shape`, with what else the writer records about it (`fields`). */
export function eventMetadata(shape: StoredShape, fields: JsonObject = {}): string {
  return JSON.stringify({ [SCHEMA_VERSION_FIELD]: shape.version, ...fields });
}

/** A stored event's payload in the current shape. Throws AppError('internal') on anything malformed. */
export function readEventPayload(shape: StoredShape, event: { payload: string; metadata: string }): JsonObject {
  return upcast(shape, versionIn(parseObject(event.metadata, shape)), parseObject(event.payload, shape));
}

/** The stored body of a document of `shape`. */
export function writeDocumentBody(shape: StoredShape, body: object): string {
  return JSON.stringify({ ...body, [SCHEMA_VERSION_FIELD]: shape.version });
}

/** A stored document's body in the current shape, without the version field. Throws AppError('internal') on anything malformed. */
export function readDocumentBody(shape: StoredShape, text: string): JsonObject {
  const { [SCHEMA_VERSION_FIELD]: version, ...body } = parseObject(text, shape);
  return upcast(shape, versionIn({ [SCHEMA_VERSION_FIELD]: version }), body);
}

function upcast(shape: StoredShape, version: number | undefined, body: JsonObject): JsonObject {
  if (version === undefined || version > shape.version) throw corrupt(shape, `version ${String(version)} is not one this build reads (newest ${shape.version})`);
  let current = body;
  for (let v = version; v < shape.version; v++) {
    const step = shape.upcasters?.[v];
    if (step === undefined) throw corrupt(shape, `no upcaster from version ${v}`);
    current = step(current);
  }
  return current;
}

/** The version a parsed record names: UNVERSIONED when absent, undefined when not a positive integer. */
function versionIn(record: JsonObject): number | undefined {
  const version = record[SCHEMA_VERSION_FIELD];
  if (version === undefined) return UNVERSIONED;
  return typeof version === 'number' && Number.isSafeInteger(version) && version >= 1 ? version : undefined;
}

function parseObject(text: string, shape: StoredShape): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AppError('internal', undefined, { cause: error });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw corrupt(shape, 'not a JSON object');
  return value as JsonObject;
}

function corrupt(shape: StoredShape, detail: string): AppError {
  return new AppError('internal', undefined, { cause: new Error(`stored ${shape.name}: ${detail}`) });
}
