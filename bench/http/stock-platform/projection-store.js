import { storage } from './storage.js';
const p = storage.projections;
export const checkpoint = p.checkpoint.bind(p),
  commit = p.commit.bind(p),
  getDocument = p.getDocument.bind(p),
  listDocuments = p.listDocuments.bind(p);
