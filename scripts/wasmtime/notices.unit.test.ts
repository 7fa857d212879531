/** wasmtime's stderr lines in the project's words: what clients cause is marked so, each kind with its own code. */
import { describe, expect, it } from 'vitest';
import { wasmtimeNotice } from './notices.ts';

describe('wasmtimeNotice()', () => {
  it.each([
    ['error: hyper::Error(IncompleteMessage)', 'wasmtime_client_gone'],
    ['error: hyper::Error(Parse(VersionH2))', 'wasmtime_http2_refused'],
    ['error: hyper::Error(Parse(Method))', 'wasmtime_connection_failed'],
  ])('%s is a client-caused %s, naming what wasmtime said', (line, code) => {
    const notice = wasmtimeNotice(line);
    expect(notice).toMatchObject({ level: 'info', code, clientCaused: true });
    expect(notice?.msg).toContain(line.slice('error: '.length));
  });

  it('the drain notice is not client-caused; other lines are not notices', () => {
    expect(wasmtimeNotice('Waiting for child tasks to exit, ctrl-c again to quit sooner...')).toMatchObject({ code: 'wasmtime_draining', clientCaused: false });
    expect(wasmtimeNotice('Serving HTTP on http://127.0.0.1:3000/')).toBeUndefined();
  });
});
