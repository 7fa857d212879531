/** One header or trailer field as wasi:http carries it (name, raw value bytes): shared by the server, its hooks and the WASI side. */
export type FieldEntry = [string, Uint8Array];
