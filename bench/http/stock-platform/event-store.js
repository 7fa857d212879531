import { storage } from './storage.js';
const e = storage.events;
export const append = e.append.bind(e),
  readStream = e.readStream.bind(e),
  streamRevision = e.streamRevision.bind(e),
  readAll = e.readAll.bind(e),
  headSequence = e.headSequence.bind(e),
  countByType = e.countByType.bind(e),
  removeStream = e.removeStream.bind(e);
