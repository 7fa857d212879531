/**
 * One poll of a relayed stream: an internal GET through the component (../guest-request.ts),
 * `x-app-relay-poll: <after>`.
 */
import { requestGuest } from '../guest/guest-request.ts';
import type { InstancePool } from '../guest/pool.ts';
import { RELAY_HEADER, RELAY_POLL_HEADER } from '../../src/contract/headers.ts';
import { parseInstruction } from './headers.ts';

export interface PollAnswer {
  /** Bytes to write to every client at the polled position (may be empty). */
  bytes: Uint8Array;
  /** The position those clients are at afterwards. */
  after: number;
}

export type Poller = (path: string, after: number) => Promise<PollAnswer>;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function guestPoller(pool: InstancePool): Poller {
  return async (path, after) => {
    const answer = await requestGuest(pool, 'GET', path, [[RELAY_POLL_HEADER, encoder.encode(String(after))]]);
    const header = answer.headers.find(([name]) => name === RELAY_HEADER);
    const instruction = header && parseInstruction(decoder.decode(header[1]));
    if (answer.status !== 200 || !instruction) throw new Error(`the guest answered the poll with status ${answer.status} and no valid ${RELAY_HEADER}`);
    return { bytes: answer.body, after: instruction.after };
  };
}
