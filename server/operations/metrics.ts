import type { FastifyInstance } from 'fastify';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

type Labels = Record<string, string>;
const key = (labels: Labels) => Object.entries(labels).map(([k, v]) => `${k}="${v.replace(/["\\\n]/g, '_')}"`).join(',');

/** A small Prometheus registry: counters and one latency histogram, in the text format. */
export class Metrics {
  private counters = new Map<string, { help: string; values: Map<string, number> }>();
  private histogram = new Map<string, { buckets: number[]; sum: number; count: number }>();

  count(name: string, help: string, labels: Labels, by = 1): void {
    let counter = this.counters.get(name);
    if (!counter) this.counters.set(name, (counter = { help, values: new Map() }));
    const k = key(labels);
    counter.values.set(k, (counter.values.get(k) ?? 0) + by);
  }

  observeDuration(labels: Labels, seconds: number): void {
    const k = key(labels);
    let entry = this.histogram.get(k);
    if (!entry) this.histogram.set(k, (entry = { buckets: BUCKETS.map(() => 0), sum: 0, count: 0 }));
    BUCKETS.forEach((bound, i) => {
      if (seconds <= bound) entry.buckets[i]! += 1;
    });
    entry.sum += seconds;
    entry.count += 1;
  }

  render(): string {
    const lines: string[] = [];
    for (const [name, counter] of this.counters) {
      lines.push(`# HELP ${name} ${counter.help}`, `# TYPE ${name} counter`);
      for (const [labels, value] of counter.values) lines.push(`${name}{${labels}} ${value}`);
    }
    const name = 'http_request_duration_seconds';
    lines.push(`# HELP ${name} Time to answer, by route.`, `# TYPE ${name} histogram`);
    for (const [labels, entry] of this.histogram) {
      BUCKETS.forEach((bound, i) => lines.push(`${name}_bucket{${labels},le="${bound}"} ${entry.buckets[i]}`));
      lines.push(`${name}_bucket{${labels},le="+Inf"} ${entry.count}`, `${name}_sum{${labels}} ${entry.sum}`, `${name}_count{${labels}} ${entry.count}`);
    }
    return `${lines.join('\n')}\n`;
  }
}

// What the security-relevant routes' answers mean, for counters an operator alerts on.
const OUTCOMES: Record<string, { metric: string; help: string }> = {
  '/api/v1/auth/login': { metric: 'home_guard_logins_total', help: 'Sign-ins by result.' },
  '/api/v1/auth/refresh': { metric: 'home_guard_refreshes_total', help: 'First-party token refreshes by result.' },
  '/api/v1/oauth/token': { metric: 'home_guard_token_grants_total', help: 'Token endpoint answers by result.' },
};
// A sign-in asked for its two-step code is neither a success nor a failure yet.
const resultOf = (status: number, expected: boolean) => (status < 400 ? 'success' : status === 429 ? 'throttled' : expected ? 'code_asked' : 'failure');

/** GET /metrics (Prometheus text format), recorded for every request; installed only when enabled. */
export function installMetrics(app: FastifyInstance): void {
  const metrics = new Metrics();
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = { method: request.method, route };
    metrics.count('http_requests_total', 'Requests by route and status.', { ...labels, status: String(reply.statusCode) });
    metrics.observeDuration(labels, reply.elapsedTime / 1000);
    const outcome = OUTCOMES[route];
    if (outcome) metrics.count(outcome.metric, outcome.help, { result: resultOf(reply.statusCode, request.answeredExpectedRefusal === true) });
  });
  app.get('/metrics', async (_request, reply) => reply.type('text/plain; version=0.0.4').send(metrics.render()));
}
