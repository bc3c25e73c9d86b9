import { Agent, request as httpRequest } from 'node:http';
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
  const run = autocannon({
    url,
    connections: options.connections ?? CONNECTIONS,
    ...(amount ? { amount } : { duration: options.seconds ?? SECONDS }),
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
  run.on('response', (_client, _status, _bytes, milliseconds) => latencies.push(milliseconds));
  const result = await run;
  // Total over elapsed time: a fixed-amount run can end inside its first second.
  return row(name, result.requests.total, result.duration, result.non2xx + result.errors + result.timeouts, latencies);
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

/** One request over a keep-alive agent, answered with its status once the body is read. */
function send(agent: Agent, url: string, request: Request): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${url}${request.path}`, { agent, method: request.method ?? 'GET', headers: request.headers ?? {} }, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
    });
    outgoing.once('error', reject);
    outgoing.end(request.body);
  });
}

/**
 * Sends a fixed list of requests over `connections` keep-alive connections and times each.
 * For runs of a few hundred requests: autocannon ends a fixed-amount run only on its 1-second
 * tick, so it would report at most `amount` requests per second; and fetch() costs the load
 * generator about a millisecond per request, which capped both sides near 1,000/s.
 */
export async function batch(name: string, url: string, requests: Request[], connections = CONNECTIONS): Promise<Row> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let non2xx = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, async () => {
    while (next < requests.length) {
      const request = requests[next++]!;
      const sent = performance.now();
      const status = await send(agent, url, request);
      latencies.push(performance.now() - sent);
      if (status < 200 || status > 299) non2xx += 1;
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return row(name, requests.length, seconds, non2xx, latencies);
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
