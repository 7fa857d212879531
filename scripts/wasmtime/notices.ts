/**
 * wasmtime's own stderr lines, said in the project's log format. Its connection errors
 * (`error: hyper::Error(…)`) are what clients cause: one closing its connection during a
 * response (an SSE tab closed), a gRPC client speaking HTTP/2 to a server of HTTP/1.1 only, a
 * malformed request head. Any client can cause them at will, so each kind is logged at most once
 * per interval with a count (host/http/interval-log.ts), never a raw line per connection.
 */

export interface WasmtimeNotice {
  level: 'info' | 'warn';
  msg: string;
  code: string;
  /** A client caused it: logged at most once per interval. */
  clientCaused: boolean;
}

const HYPER_ERROR = /^error: hyper::Error\((.*)\)$/;

/** What a client did, by hyper's error kind (named at the end of the message, as wasmtime says it). */
function clientNotice(kind: string): WasmtimeNotice {
  const notice = kindNotice(kind);
  return { ...notice, msg: `${notice.msg} (wasmtime: hyper::Error(${kind.slice(0, 80)}))` };
}

function kindNotice(kind: string): WasmtimeNotice {
  if (kind === 'IncompleteMessage') {
    return { level: 'info', msg: 'a client closed its connection before its response ended (a closed tab, a stopped curl)', code: 'wasmtime_client_gone', clientCaused: true };
  }
  if (kind === 'Parse(VersionH2)') {
    return {
      level: 'info',
      msg: 'a client spoke HTTP/2 (a gRPC client?): wasmtime serve speaks HTTP/1.1 only, so it closed the connection; gRPC is served by the Node host',
      code: 'wasmtime_http2_refused',
      clientCaused: true,
    };
  }
  return { level: 'info', msg: "a client's connection failed", code: 'wasmtime_connection_failed', clientCaused: true };
}

export function wasmtimeNotice(line: string): WasmtimeNotice | undefined {
  const hyper = HYPER_ERROR.exec(line);
  if (hyper) return clientNotice(hyper[1] ?? '');
  if (line.startsWith('Waiting for child tasks to exit')) return { level: 'info', msg: 'wasmtime is waiting for running requests', code: 'wasmtime_draining', clientCaused: false };
  return undefined;
}
