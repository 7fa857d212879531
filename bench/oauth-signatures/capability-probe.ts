/**
 * The host-capability probe: capability-entry.ts on the world `signatures-probe`, which
 * signatures.wit declares beside the interface the host answers (host-signatures.ts). Built by
 * harness/oauth-probe/build-probe.ts with that file added to a copy of wit/.
 */
import { join } from 'node:path';
import type { ProbeSpec } from '../../harness/oauth-probe/build-probe.ts';

export const CAPABILITY_PROBE: ProbeSpec = {
  name: 'capability',
  entry: join(import.meta.dirname, 'capability-entry.ts'),
  world: 'signatures-probe',
  extraWit: [join(import.meta.dirname, 'signatures.wit')],
};
