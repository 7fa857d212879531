/**
 * The storage conformance suite. Every backend (SQLite, PostgreSQL, Redis, files, and the memory
 * stores of the unit tests) runs this one suite, so the semantics the WIT documents
 * (wit/event-store.wit, projection-store.wit, key-value.wit) are pinned once and cannot drift
 * between backends.
 *
 * `factory()` must return a backend over EMPTY storage (a fresh file/database, or one it has
 * reset). `openSecond()`, when given, opens another backend over the same storage as the most
 * recent `factory()` result (another connection, as another host process would have), so the
 * concurrency tests race across connections. The suite closes everything it opened.
 * One file per concern under contract/.
 */
import { afterEach, describe } from 'vitest';
import type { StorageBackend } from '../../host/storage/types.ts';
import { concurrencyCases } from './contract/concurrency.ts';
import { documentCases } from './contract/documents.ts';
import { eventAppendCases } from './contract/event-appends.ts';
import { eventReadCases } from './contract/event-reads.ts';
import { keyValueCases } from './contract/key-value.ts';
import { lifecycleCases } from './contract/lifecycle.ts';
import { removeStreamCases } from './contract/remove-stream.ts';
import { truncateBeforeCases } from './contract/truncate-before.ts';
import type { ContractContext, StorageContractOptions } from './contract/support.ts';

export type { StorageContractOptions } from './contract/support.ts';

export function runStorageContract(name: string, factory: () => Promise<StorageBackend>, options: StorageContractOptions = {}): void {
  describe(`storage contract: ${name}`, () => {
    const opened: StorageBackend[] = [];

    async function open(): Promise<StorageBackend> {
      const backend = await factory();
      opened.push(backend);
      return backend;
    }

    async function second(): Promise<StorageBackend | undefined> {
      if (options.openSecond === undefined) return undefined;
      const backend = await options.openSecond();
      opened.push(backend);
      return backend;
    }

    afterEach(async () => {
      for (const backend of opened.splice(0).reverse()) await backend.close();
    });

    const context: ContractContext = { open, second, options };
    eventAppendCases(context);
    eventReadCases(context);
    removeStreamCases(context);
    truncateBeforeCases(context);
    documentCases(context);
    keyValueCases(context);
    lifecycleCases(context);
    concurrencyCases(context);
  });
}
