import autocannon from 'autocannon';

export type Row = { scenario: string; rps: number; p50: number; p99: number; non2xx: number; requests: number; seconds: number; latencies: number[] };

export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

export type Request = { method?: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string };
/** One connection's own state, kept by autocannon between its requests. */
export type Context = Record<string, unknown>;

type Options = {
  /** Answers every response (to put a rotated token back into its pool). */
  done?: (status: number, body: string, context: Context) => void;
  /** A fixed number of requests instead of a fixed time. */
  amount?: number;
  /** The time to run, SECONDS unless given. */
  seconds?: number;
  connections?: number;
  /** Requests per second over all connections, instead of as fast as possible. */
  rate?: number;
};

const asAutocannon = (request: Request) => ({ method: request.method ?? 'GET', path: request.path, headers: { ...(request.headers ?? {}) }, ...(request.body !== undefined ? { body: request.body } : {}) });

/**
 * Runs one scenario with autocannon. `next` is one request sent over and over, or builds each
 * request (it may take a token from a pool); `done` sees each answer: a connection is one chain.
 * A fixed request is encoded once: built per request, autocannon encodes each anew, and encoding
 * once saved the load generator (on the same two cores as the servers) 8-37% of its CPU per request.
 */
export async function scenario(name: string, url: string, next: Request | ((context: Context) => Request | null), options: Options = {}): Promise<Row> {
  const { done, amount, rate } = options;
  const started = performance.now();
  const run = autocannon({
    url,
    connections: options.connections ?? CONNECTIONS,
    // A fixed-amount run ends on autocannon's next sample tick after its last answer: ticks every
    // 10 ms keep that wait short, and the run is timed to its last answer (below), not to the tick.
    ...(amount ? { amount, sampleInt: 10 } : { duration: options.seconds ?? SECONDS }),
    ...(rate ? { overallRate: rate } : {}),
    requests: [
      {
        ...(typeof next === 'function'
          ? {
              setupRequest: (request: autocannon.Request, context: object) => {
                const built = next(context as Context);
                return built ? { ...request, ...asAutocannon(built) } : request;
              },
            }
          : asAutocannon(next)),
        ...(done ? { onResponse: (status: number, body: string, context: object) => done(status, body, context as Context) } : {}),
      },
    ],
    // Without a callback autocannon answers its instance, an event emitter, made thenable.
  }) as Promise<autocannon.Result> & Pick<autocannon.Instance, 'on'>;
  // Every response's time, so that rows of several slices give exact percentiles together.
  const latencies: number[] = [];
  let lastAnswer = started;
  run.on('response', (_client, _status, _bytes, milliseconds) => latencies.push(milliseconds));
  // Only a fixed-amount run is timed here: a timed run keeps the clock off its generator's hot path.
  if (amount) run.on('response', () => void (lastAnswer = performance.now()));
  const result = await run;
  // A fixed-amount run's rate is its answers over the time from its start (connecting included)
  // to its last answer; autocannon's own figures are per whole sample tick.
  const requests = amount ? latencies.length : result.requests.total;
  const seconds = amount ? (lastAnswer - started) / 1000 : result.duration;
  return row(name, requests, seconds, result.non2xx + result.errors + result.timeouts, latencies);
}

function row(scenario: string, requests: number, seconds: number, non2xx: number, latencies: number[]): Row {
  const sorted = [...latencies].sort((a, b) => a - b);
  const percentile = (p: number) => (sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!) : 0);
  return { scenario, rps: Math.round(requests / seconds), p50: percentile(50), p99: percentile(99), non2xx, requests, seconds, latencies };
}

/** Rows of one scenario run in slices, as one: requests over the slices' time, percentiles over all answers. */
export function combine(name: string, rows: Row[]): Row {
  const sum = (field: 'requests' | 'seconds' | 'non2xx') => rows.reduce((total, r) => total + r[field], 0);
  return row(name, sum('requests'), sum('seconds'), sum('non2xx'), rows.flatMap((r) => r.latencies));
}

/**
 * A pool of rotating tokens: each request takes one, its answer gives the successor back. A
 * token whose answer a run's end cuts off is lost with it: `size` tells how many are left.
 */
export function tokenPool(tokens: string[], pick: (body: Record<string, string>) => string) {
  const pool = [...tokens];
  return {
    size: () => pool.length,
    add: (more: string[]) => void pool.push(...more),
    take: () => pool.shift(),
    give: (status: number, body: string) => {
      if (status === 200) pool.push(pick(JSON.parse(body) as Record<string, string>));
    },
  };
}

export const form = (values: Record<string, string>) => new URLSearchParams(values).toString();
export const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
