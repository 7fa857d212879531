/** HostMetrics.watch(): the host's own counts become gauges and monotonic counters at collection time. */
import { describe, expect, it } from 'vitest';
import { HostMetrics, methodLabel } from './registry.ts';

describe('HostMetrics.watch()', () => {
  it('reports pool and relay state, and their counts as counters that only grow by what the host counted', async () => {
    const metrics = new HostMetrics('main');
    const pool = { idle: 2, busy: 1, waiting: 3, created: 3, discarded: 0, retired: 0 };
    const relay = { clients: 4, polls: 10, coalesced: 7, deferred: 3, cut: 1, heldBytes: 2048 };
    metrics.watch({ pool: () => pool, relay: () => relay, dependencies: async () => ({ store: false }) });
    const text = async () => metrics.registry.metrics();
    let body = await text();
    for (const line of [
      'host_guest_instances{state="idle"} 2',
      'host_guest_instances{state="busy"} 1',
      'host_guest_waiting_requests 3',
      'host_guest_instances_created_total 3',
      'host_guest_instances_ended_total{reason="discarded"} 0',
      'host_guest_instances_ended_total{reason="retired"} 0',
      'host_sse_streams_open 4',
      'host_relay_polls_total 10',
      'host_relay_frames_coalesced_total 7',
      'host_relay_frames_deferred_total 3',
      'host_relay_clients_cut_total 1',
      'host_relay_held_bytes 2048',
      'host_dependency_up{dependency="store"} 0',
    ])
      expect(body).toContain(line);
    Object.assign(pool, { created: 5, discarded: 1, retired: 1 });
    relay.polls = 12;
    body = await text();
    for (const line of [
      'host_guest_instances_created_total 5',
      'host_guest_instances_ended_total{reason="discarded"} 1',
      'host_guest_instances_ended_total{reason="retired"} 1',
      'host_relay_polls_total 12',
    ])
      expect(body).toContain(line);
  });
});

describe('methodLabel()', () => {
  it('keeps the standard methods and folds any other into `other`', () => {
    expect(['GET', 'POST', 'DELETE'].map(methodLabel)).toEqual(['GET', 'POST', 'DELETE']);
    expect([undefined, 'PROPFIND', 'get'].map(methodLabel)).toEqual(['other', 'other', 'other']);
  });
});
