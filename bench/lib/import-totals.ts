/**
 * The host's WIT import histogram (`host_wit_import_duration_seconds`, host/metrics/imports.ts),
 * read from its metrics port: per function (`interface#function`), total seconds and calls since start.
 */
export type ImportTotals = Map<string, { seconds: number; calls: number }>;

export async function importTotals(metricsPort: number): Promise<ImportTotals> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const totals: ImportTotals = new Map();
  for (const line of text.split('\n')) {
    const match = /^host_wit_import_duration_seconds_(sum|count)\{function="([^"]+)"\} (\S+)/.exec(line);
    if (!match) continue;
    const entry = totals.get(match[2]!) ?? { seconds: 0, calls: 0 };
    if (match[1] === 'sum') entry.seconds = Number(match[3]);
    else entry.calls = Number(match[3]);
    totals.set(match[2]!, entry);
  }
  return totals;
}
