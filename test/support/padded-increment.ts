/** gRPC request bodies of a chosen size, for attacks that send them in tiny pieces. */

/** A ChangeCounterRequest { amount: 1 } padded with an unknown bytes field (15) to `size` bytes, gRPC-framed. */
export function paddedIncrement(size: number): Uint8Array {
  const padding = size - 2 - 1 - 3;
  const message = new Uint8Array(size);
  message.set([0x08, 0x01, (15 << 3) | 2, (padding & 0x7f) | 0x80, ((padding >> 7) & 0x7f) | 0x80, padding >> 14]);
  const framed = new Uint8Array(5 + size);
  new DataView(framed.buffer).setUint32(1, size);
  framed.set(message, 5);
  return framed;
}
