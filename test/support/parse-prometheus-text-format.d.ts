/** Types of parse-prometheus-text-format 1.1 (it ships none): prom2json's output shape. */
declare module 'parse-prometheus-text-format' {
  export interface ParsedSample {
    labels?: Record<string, string>;
    value?: string;
    buckets?: Record<string, string>;
    quantiles?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  export interface ParsedFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: ParsedSample[];
  }
  /** Throws InvalidLineError on a line that is not valid Prometheus text format. */
  export default function parsePrometheusTextFormat(text: string): ParsedFamily[];
}
