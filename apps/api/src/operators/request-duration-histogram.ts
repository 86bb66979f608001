import type { Metric, MetricValueWithName } from 'prom-client';

type Label = 'method' | 'route' | 'status' | 'le';
/** A bucket's value carries `exemplar: null` as prom-client's do (none are kept), so getMetricsAsJSON matches too. */
type Value = MetricValueWithName<Label> & { exemplar?: null };

/** One series (method, route pattern, status): counts per bucket (not cumulative), sum and count. */
interface Series {
  readonly labels: { method: string; route: string; status: string };
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

/**
 * A Prometheus histogram of HTTP request durations by method, route pattern and status, counted at
 * response time and rendered at scrape, for a hot path: every request is observed.
 * prom-client's Histogram#observe builds, validates and hashes a label object and looks its
 * bucket up by a number turned into a string, about 0.5 µs of every warm read (the profile of a
 * page read by revision); here a request costs three Map lookups (route pattern and method are
 * the same string objects on every request, so their hashes are kept) and a scan of the bounds.
 * It is registered in a prom-client Registry as a metric of its own, so a scrape shows exactly
 * what prom-client's Histogram would: `_bucket` (cumulative, `le` first, `+Inf` last), `_sum`
 * and `_count` per series.
 */
export class RequestDurationHistogram {
  readonly type = 'histogram' as const;
  readonly aggregator = 'sum' as const;
  /** route -> method -> status -> series */
  private series = new Map<string, Map<string, Map<number, Series>>>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly upperBounds: readonly number[],
  ) {}

  /** Counts one request that took `seconds`. */
  observe(method: string, route: string, status: number, seconds: number): void {
    let byMethod = this.series.get(route);
    if (byMethod === undefined) this.series.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (byStatus === undefined) byMethod.set(method, (byStatus = new Map()));
    let s = byStatus.get(status);
    if (s === undefined) byStatus.set(status, (s = { labels: { method, route, status: String(status) }, counts: new Float64Array(this.upperBounds.length), sum: 0, count: 0 }));
    const bounds = this.upperBounds;
    for (let i = 0; i < bounds.length; i++) {
      if (seconds <= bounds[i]) {
        s.counts[i]++;
        break;
      }
    }
    s.sum += seconds;
    s.count++;
  }

  /**
   * The values in prom-client's shape, series grouped by route, then method, each group in the order
   * first seen (prom-client's Histogram lists them in the order first seen alone; Prometheus reads
   * series in any order, and the spec's observations come out the same either way).
   */
  async get(): Promise<{ name: string; help: string; type: 'histogram'; aggregator: 'sum'; values: Value[] }> {
    const values: Value[] = [];
    for (const byMethod of this.series.values()) {
      for (const byStatus of byMethod.values()) {
        for (const s of byStatus.values()) {
          let cumulative = 0;
          for (let i = 0; i < this.upperBounds.length; i++) {
            cumulative += s.counts[i];
            values.push({ metricName: `${this.name}_bucket`, labels: { le: this.upperBounds[i], ...s.labels }, value: cumulative, exemplar: null });
          }
          values.push({ metricName: `${this.name}_bucket`, labels: { le: '+Inf', ...s.labels }, value: s.count, exemplar: null });
          values.push({ metricName: `${this.name}_sum`, labels: { ...s.labels }, value: s.sum });
          values.push({ metricName: `${this.name}_count`, labels: { ...s.labels }, value: s.count });
        }
      }
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.series = new Map();
  }

  /** As the Registry takes it: it reads name, help, type and aggregator, and calls get() and reset(). */
  asMetric(): Metric<Label> {
    return this as unknown as Metric<Label>;
  }
}
