/**
 * Pausing one body: over its client's budget, an HTTP/1.1 body pauses its request and socket until
 * an eighth of a second's pieces are saved again, an HTTP/2 body holds its connection's windows at
 * 0 instead; a full queue and the budget pause together and resume only once neither holds. One
 * log line per interval.
 */
import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClientPieceRate } from '../admission/piece-rate.ts';
import type { HostLogger } from '../log.ts';
import { BodyFlow } from './body-flow.ts';
import type { NodeRequest } from '../net/node-http.ts';
import { IntervalLog } from './interval-log.ts';

function http1Request(remoteAddress: string) {
  const socket = { remoteAddress, pause: vi.fn(), resume: vi.fn() };
  return Object.assign(new EventEmitter(), { httpVersionMajor: 1, socket, readableLength: 0, pause: vi.fn(), resume: vi.fn() });
}

function http2Request(remoteAddress: string) {
  const session = { destroyed: false, closed: false, settings: vi.fn((_: unknown, ack: () => void) => ack()), destroy: vi.fn() };
  const socket = { remoteAddress };
  return Object.assign(new EventEmitter(), { httpVersionMajor: 2, socket, stream: { session }, readableLength: 0, pause: vi.fn(), resume: vi.fn() });
}

const peer = (req: NodeRequest) => (req.socket as unknown as { remoteAddress: string }).remoteAddress;

describe('BodyFlow', () => {
  let logged: Array<Record<string, unknown> | undefined>;
  let events: IntervalLog;
  beforeEach(() => {
    vi.useFakeTimers();
    logged = [];
    const logger: HostLogger = { log: (_level, _msg, fields) => logged.push(fields) };
    events = new IntervalLog(logger);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('HTTP/1.1: past the budget, pauses the request and its socket until an eighth of a second is saved', () => {
    const rate = new ClientPieceRate(80, peer);
    const req = http1Request('192.0.2.1');
    const flow = new BodyFlow(req as unknown as NodeRequest, { rate, events });
    for (let i = 0; i < 80; i++) flow.piece(1);
    expect(req.pause).not.toHaveBeenCalled();
    flow.piece(1);
    flow.piece(1);
    expect(req.pause).toHaveBeenCalledTimes(1);
    expect(req.socket.pause).toHaveBeenCalledTimes(1);
    expect(rate.stats.throttled).toBe(1);
    expect(logged).toEqual([expect.objectContaining({ code: 'body_piece_rate', client: '192.0.2.1', rate: 80, count: 1 })]);
    // Two pieces owed, then 10 to save (an eighth of 80): 150 ms at 80 a second.
    vi.advanceTimersByTime(140);
    expect(req.resume).not.toHaveBeenCalled();
    vi.advanceTimersByTime(20);
    expect(req.resume).toHaveBeenCalledTimes(1);
    expect(req.socket.resume).toHaveBeenCalledTimes(1);
  });

  it('one client shares its budget across its bodies; another client has its own', () => {
    const rate = new ClientPieceRate(10, peer);
    const first = http1Request('192.0.2.1');
    const second = http1Request('192.0.2.1');
    const other = http1Request('192.0.2.2');
    const flows = [first, second].map((req) => new BodyFlow(req as unknown as NodeRequest, { rate, events }));
    for (let i = 0; i < 6; i++) for (const flow of flows) flow.piece(1);
    expect(first.pause).toHaveBeenCalledTimes(1);
    expect(second.pause).toHaveBeenCalledTimes(1);
    const otherFlow = new BodyFlow(other as unknown as NodeRequest, { rate, events });
    for (let i = 0; i < 10; i++) otherFlow.piece(1);
    expect(other.pause).not.toHaveBeenCalled();
  });

  it('HTTP/1.1: what the parser put into the paused request is charged at once, and not again when delivered', () => {
    const rate = new ClientPieceRate(80, peer);
    const req = http1Request('192.0.2.1');
    const flow = new BodyFlow(req as unknown as NodeRequest, { rate, events });
    for (let i = 0; i < 81; i++) flow.piece(1);
    // The rest of the parser's read: 800 one-byte pieces buffered in the paused request.
    req.readableLength = 800;
    vi.advanceTimersByTime(0);
    const { bucket } = rate.open(req as unknown as NodeRequest)!;
    expect(bucket.msUntil(0)).toBeCloseTo((801 / 80) * 1000, -2);
    for (let i = 0; i < 800; i++) flow.piece(1);
    expect(bucket.msUntil(0)).toBeCloseTo((801 / 80) * 1000, -2);
    expect(req.pause).toHaveBeenCalledTimes(1);
  });

  it('a body of a client in debt starts paused', () => {
    const rate = new ClientPieceRate(8, peer);
    const first = new BodyFlow(http1Request('192.0.2.1') as unknown as NodeRequest, { rate, events });
    for (let i = 0; i < 9; i++) first.piece(1);
    const next = http1Request('192.0.2.1');
    new BodyFlow(next as unknown as NodeRequest, { rate, events });
    expect(next.pause).toHaveBeenCalledTimes(1);
    expect(next.socket.pause).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000);
    expect(next.resume).toHaveBeenCalledTimes(1);
  });

  it('a full queue and the budget pause together; reading resumes once neither holds', () => {
    const rate = new ClientPieceRate(8, peer);
    const req = http1Request('192.0.2.1');
    const flow = new BodyFlow(req as unknown as NodeRequest, { rate, events });
    flow.hold('queue');
    for (let i = 0; i < 9; i++) flow.piece(1);
    expect(req.pause).toHaveBeenCalledTimes(1);
    flow.release('queue');
    expect(req.resume).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1000);
    expect(req.resume).toHaveBeenCalledTimes(1);
  });

  it('HTTP/2: past the budget, holds the connection windows at 0 instead of pausing the stream, and gives them back', () => {
    const rate = new ClientPieceRate(8, peer);
    const req = http2Request('192.0.2.1');
    const flow = new BodyFlow(req as unknown as NodeRequest, { rate, events });
    for (let i = 0; i < 9; i++) flow.piece(1);
    expect(req.pause).not.toHaveBeenCalled();
    expect(req.stream.session.settings).toHaveBeenCalledTimes(1);
    expect(req.stream.session.settings.mock.calls[0]![0]).toEqual({ initialWindowSize: 0 });
    vi.advanceTimersByTime(1000);
    expect(req.stream.session.settings).toHaveBeenCalledTimes(2);
    expect(req.stream.session.settings.mock.calls[1]![0]).toEqual({ initialWindowSize: 65_535 });
    // Both acknowledged: the SETTINGS_TIMEOUT cut never comes.
    vi.advanceTimersByTime(20_000);
    expect(req.stream.session.destroy).not.toHaveBeenCalled();
  });

  it('HTTP/2 from a trusted proxy: pauses only the stream, never the windows of the connection other clients share', () => {
    const rate = new ClientPieceRate(8, () => '198.51.100.7', { isProxy: (address) => address === '192.0.2.9' });
    const req = http2Request('192.0.2.9');
    const flow = new BodyFlow(req as unknown as NodeRequest, { rate, events });
    for (let i = 0; i < 9; i++) flow.piece(1);
    expect(req.stream.session.settings).not.toHaveBeenCalled();
    expect(req.pause).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000);
    expect(req.resume).toHaveBeenCalledTimes(1);
    expect(req.stream.session.settings).not.toHaveBeenCalled();
  });

  it('HTTP/2: a client that never acknowledges the SETTINGS is cut', () => {
    const rate = new ClientPieceRate(8, peer);
    const req = http2Request('192.0.2.1');
    req.stream.session.settings.mockImplementation(() => undefined);
    const flow = new BodyFlow(req as unknown as NodeRequest, { rate, events });
    for (let i = 0; i < 9; i++) flow.piece(1);
    vi.advanceTimersByTime(10_000);
    expect(req.stream.session.destroy).toHaveBeenCalled();
  });

  it('without a budget, pieces never pause the body', () => {
    const req = http1Request('192.0.2.1');
    const flow = new BodyFlow(req as unknown as NodeRequest);
    for (let i = 0; i < 100_000; i++) flow.piece(1);
    expect(req.pause).not.toHaveBeenCalled();
  });
});
