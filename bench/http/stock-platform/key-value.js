import { storage } from './storage.js';
const kv = storage.keyValue;
export const get = kv.get.bind(kv),
  set = kv.set.bind(kv),
  take = kv.take.bind(kv),
  increment = kv.increment.bind(kv);
export { _delete as delete };
const _delete = kv.delete.bind(kv);
