/**
 * Reads a Prometheus text exposition for tests with parse-prometheus-text-format, an outside
 * parser that throws on a malformed line, and checks what the format requires beyond syntax:
 * one family per name, and histograms whose buckets are cumulative and end at `+Inf` = count.
 *
 * That parser folds every series of a labelled histogram into one (1.1.1 keeps only the last
 * labels' buckets), so series values are read from a second pass where histogram families are
 * declared untyped: each `_bucket`, `_sum` and `_count` line then stays a series of its own (in a
 * family the parser repeats per series: they are gathered by name).
 */
import parsePrometheusTextFormat, { type ParsedFamily, type ParsedSample } from 'parse-prometheus-text-format';

type Labels = Record<string, string>;

export interface Scrape {
  /** The families as the parser read them (names, types, help; histogram series folded). */
  families: ParsedFamily[];
  /** The value of one series (labels matched exactly), or undefined when absent. */
  value(name: string, labels?: Labels): number | undefined;
  /** The sample count of one histogram series. */
  count(name: string, labels?: Labels): number | undefined;
  /** The sum of every series of a family whose labels include `labels`. */
  total(name: string, labels?: Labels): number;
}

const sameLabels = (a: Labels | undefined, b: Labels) => {
  const keys = Object.keys(a ?? {});
  return keys.length === Object.keys(b).length && keys.every((k) => a?.[k] === b[k]);
};
const includes = (a: Labels | undefined, b: Labels) => Object.entries(b).every(([k, v]) => a?.[k] === v);
const withoutLe = (labels: Labels | undefined): Labels => Object.fromEntries(Object.entries(labels ?? {}).filter(([k]) => k !== 'le'));

function checkHistogram(name: string, buckets: ParsedSample[], counts: ParsedSample[]): void {
  for (const series of counts) {
    const own = buckets.filter((b) => sameLabels(withoutLe(b.labels), series.labels ?? {}));
    const sorted = own.map((b) => [b.labels?.['le'] === '+Inf' ? Infinity : Number(b.labels?.['le']), Number(b.value)] as const).sort((x, y) => x[0] - y[0]);
    sorted.forEach(([, n], i) => {
      if (i > 0 && n < sorted[i - 1]![1]) throw new Error(`${name}${JSON.stringify(series.labels)}: buckets are not cumulative`);
    });
    const inf = sorted.find(([le]) => le === Infinity)?.[1];
    if (inf !== Number(series.value)) throw new Error(`${name}${JSON.stringify(series.labels)}: +Inf bucket ${inf} differs from count ${series.value}`);
  }
}

/** Throws when the text is not a valid exposition. */
export function parseScrape(text: string): Scrape {
  const families = parsePrometheusTextFormat(text);
  const names = families.map((f) => f.name);
  const duplicate = names.find((n, i) => names.indexOf(n) !== i);
  if (duplicate !== undefined) throw new Error(`metric family ${duplicate} appears twice`);
  const flat = parsePrometheusTextFormat(text.replace(/^# TYPE (\S+) histogram$/gm, '# TYPE $1 untyped'));
  const samples = (name: string) => flat.filter((f) => f.name === name).flatMap((f) => f.metrics);
  for (const histogram of families.filter((f) => f.type === 'HISTOGRAM')) {
    checkHistogram(histogram.name, samples(`${histogram.name}_bucket`), samples(`${histogram.name}_count`));
  }
  const value = (name: string, labels: Labels = {}) => {
    const series = samples(name).find((m) => sameLabels(m.labels, labels));
    return series?.value === undefined ? undefined : Number(series.value);
  };
  return {
    families,
    value,
    count: (name, labels) => value(`${name}_count`, labels),
    total: (name, labels = {}) =>
      samples(name)
        .filter((m) => includes(m.labels, labels))
        .reduce((n, m) => n + Number(m.value ?? 0), 0),
  };
}

/** GET /metrics of an operations listener, checked and parsed. */
export async function scrape(metricsUrl: string): Promise<Scrape> {
  const response = await fetch(`${metricsUrl}/metrics`);
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('text/plain; version=0.0.4')) throw new Error(`/metrics content-type ${type}`);
  return parseScrape(await response.text());
}
