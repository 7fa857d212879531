/**
 * `npm run tracker:a11 -- status|done`: shows tracker item A11, or moves it to `done`, which it
 * refuses (exit 1) unless the recorded results show preflight, browser, callback and evidence
 * passed for all three providers against real provider apps; it then lists what is missing.
 * `TRACKER_A11_FILE` points at another record (tests).
 */
import { DEFAULT_A11_FILE, markA11Done, missingEvidence, readA11 } from './tracker/a11-record.ts';

const file = process.env.TRACKER_A11_FILE ?? DEFAULT_A11_FILE;
const command = process.argv[2] ?? 'status';

function printGaps(gaps: ReturnType<typeof missingEvidence>): void {
  for (const g of gaps) console.log(`MISSING  ${g.provider.padEnd(10)}  ${g.check.padEnd(9)}  ${g.why}`);
}

if (command === 'status') {
  const record = readA11(file);
  const gaps = missingEvidence(record);
  console.log(`A11 ${record.state}: ${record.title}`);
  console.log(`${record.results.length} recorded result(s); ${gaps.length} required check(s) still missing`);
  printGaps(gaps);
} else if (command === 'done') {
  const { done, gaps } = markA11Done(file);
  if (done) {
    console.log('A11 done: preflight, browser, callback and evidence passed for all three providers against real provider apps');
  } else {
    console.log(`REFUSED  A11 stays operator_pending: ${gaps.length} required check(s) have no passing live result`);
    printGaps(gaps);
    process.exitCode = 1;
  }
} else {
  console.log('usage: npm run tracker:a11 -- status|done');
  process.exitCode = 2;
}
