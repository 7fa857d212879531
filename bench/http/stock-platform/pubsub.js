// Synchronous in-process pub/sub (no subscriber waits in this benchmark).
export class Subscription {
  next() {
    return undefined;
  }
}
export const publish = () => undefined;
export const subscribe = () => new Subscription();
