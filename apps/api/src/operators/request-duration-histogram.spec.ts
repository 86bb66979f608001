import { Histogram, Registry } from 'prom-client';
import { RequestDurationHistogram } from './request-duration-histogram';

const NAME = 'quire_http_request_duration_seconds';
const HELP = 'HTTP request latency, by method, route pattern and status';
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The same observations through prom-client's Histogram and through ours, each in a registry of its own. */
function both() {
  const theirs = new Registry();
  const histogram = new Histogram({ name: NAME, help: HELP, labelNames: ['method', 'route', 'status'], buckets: BUCKETS, registers: [theirs] });
  const ours = new Registry();
  const counts = new RequestDurationHistogram(NAME, HELP, BUCKETS);
  ours.registerMetric(counts.asMetric());
  const observe = (method: string, route: string, status: number, seconds: number) => {
    histogram.observe({ method, route, status: String(status) }, seconds);
    counts.observe(method, route, status, seconds);
  };
  return { theirs, ours, counts, observe };
}

describe('RequestDurationHistogram', () => {
  it("renders exactly what prom-client's Histogram renders for the same requests: buckets, +Inf, sum and count per series", async () => {
    const { theirs, ours, observe } = both();
    const durations = [0.0001, 0.005, 0.0051, 0.02, 0.3, 0.3, 2.6, 29.9, 30, 45, 1e-9];
    for (const s of durations) observe('GET', '/v1/spaces/:spaceId', 200, s);
    observe('GET', '/v1/spaces/:spaceId', 404, 0.002);
    observe('POST', '/v1/spaces/:spaceId/git/import', 204, 0.07);
    observe('GET', 'unmatched', 404, 0.001);
    observe('GET', '/v1/spaces/:spaceId', 200, 0.004);
    observe('GET', '/v1/say/"quoted"\\path\n', 200, 0.004);

    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain(`${NAME}_bucket{le="0.005",method="GET",route="/v1/spaces/:spaceId",status="200"} 4`);
    expect(text).toContain(`${NAME}_bucket{le="+Inf",method="GET",route="/v1/spaces/:spaceId",status="200"} 12`);
    expect(text).toContain(`${NAME}_count{method="POST",route="/v1/spaces/:spaceId/git/import",status="204"} 1`);
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
  });

  it('starts again from nothing when the registry is reset', async () => {
    const { theirs, ours, observe } = both();
    observe('GET', '/v1/user', 200, 0.01);
    theirs.resetMetrics();
    ours.resetMetrics();
    observe('GET', '/v1/user', 401, 0.02);
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.metrics()).not.toContain('status="200"');
  });
});
