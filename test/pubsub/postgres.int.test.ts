/**
 * PostgreSQL LISTEN/NOTIFY pub/sub across hosts: two `postgresPubSub` instances play two host
 * processes sharing one database. A random namespace keeps parallel test files apart.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_NOTIFY_PAYLOAD_BYTES, postgresPubSub, serverChannelName, type PostgresPubSub } from '../../host/pubsub/postgres.ts';
import { inCi, POSTGRES_URL, randomToken, sharedServers } from '../../harness/servers.ts';

const unavailable = await sharedServers();
if (unavailable !== undefined && inCi) it('needs PostgreSQL under CI', () => expect.fail(unavailable));

describe.runIf(unavailable === undefined)('postgres pub/sub', () => {
  const namespace = `test_pubsub_${randomToken()}`;
  const opened: PostgresPubSub[] = [];
  const host = () => {
    const pubsub = postgresPubSub({ url: POSTGRES_URL, namespace });
    opened.push(pubsub);
    return pubsub;
  };
  afterEach(async () => {
    for (const pubsub of opened.splice(0)) await pubsub.close();
  });

  /** The next message `pubsub` hears on `channel`. */
  const nextMessage = async (pubsub: PostgresPubSub, channel: string): Promise<{ message: Promise<string>; stop: () => void }> => {
    let stop = () => {};
    const message = new Promise<string>((resolve) => (stop = pubsub.listen(channel, resolve)));
    await pubsub.subscribed();
    return { message, stop };
  };

  it("a message published by one host reaches the other's listener", async () => {
    const [a, b] = [host(), host()];
    const heard = await nextMessage(b, 'updates');
    await a.publish('updates', '{"n":1}');
    expect(await heard.message).toBe('{"n":1}');
    heard.stop();
  });

  it('a message too long for NOTIFY goes out as an empty wake-up instead of failing', async () => {
    const [a, b] = [host(), host()];
    const heard = await nextMessage(b, 'big');
    await a.publish('big', 'x'.repeat(MAX_NOTIFY_PAYLOAD_BYTES + 1));
    expect(await heard.message).toBe('');
    heard.stop();
  });

  it('a channel name longer than an identifier is hashed, and still carries messages', async () => {
    const long = 'c'.repeat(80);
    expect(Buffer.byteLength(serverChannelName(namespace, long))).toBeLessThanOrEqual(63);
    expect(serverChannelName(namespace, long)).not.toBe(serverChannelName(namespace, `${long}x`));
    const [a, b] = [host(), host()];
    const heard = await nextMessage(b, long);
    await a.publish(long, 'hello');
    expect(await heard.message).toBe('hello');
    heard.stop();
  });
});
