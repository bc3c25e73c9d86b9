import { Agent, request as httpRequest } from 'node:http';
import autocannon from 'autocannon';

export type Row = { scenario: string; rps: number; p50: number; p99: number; non2xx: number; requests: number; seconds: number };

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
  connections?: number;
  /** Requests per second over all connections, instead of as fast as possible. */
  rate?: number;
};

/**
 * Runs one scenario with autocannon. `next` builds each request (it may take a token from a
 * pool), `done` sees each answer: a connection is one chain.
 */
export async function scenario(name: string, url: string, next: (context: Context) => Request | null, options: Options = {}): Promise<Row> {
  const { done, amount, rate } = options;
  const result = await autocannon({
    url,
    connections: options.connections ?? CONNECTIONS,
    ...(amount ? { amount } : { duration: SECONDS }),
    ...(rate ? { overallRate: rate } : {}),
    requests: [
      {
        setupRequest: (request: autocannon.Request, context: object) => {
          const built = next(context as Context);
          return built ? { ...request, method: built.method ?? 'GET', path: built.path, headers: { ...(built.headers ?? {}) }, ...(built.body !== undefined ? { body: built.body } : {}) } : request;
        },
        ...(done ? { onResponse: (status: number, body: string, context: object) => done(status, body, context as Context) } : {}),
      },
    ],
  });
  // Total over elapsed time: a fixed-amount run can end inside its first second.
  return { scenario: name, rps: Math.round(result.requests.total / result.duration), p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx + result.errors + result.timeouts, requests: result.requests.total, seconds: result.duration };
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
  latencies.sort((a, b) => a - b);
  const percentile = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))]!);
  return { scenario: name, rps: Math.round(requests.length / seconds), p50: percentile(50), p99: percentile(99), non2xx, requests: requests.length, seconds };
}

/** Runs a scenario in rounds (each needing fresh state) and sums them into one row. */
export async function inRounds(name: string, count: number, round: () => Promise<Row>): Promise<Row> {
  const rows: Row[] = [];
  for (let i = 0; i < count; i++) rows.push(await round());
  const requests = rows.reduce((sum, row) => sum + row.requests, 0);
  const seconds = rows.reduce((sum, row) => sum + row.seconds, 0);
  const p50s = rows.map((row) => row.p50).sort((a, b) => a - b);
  return {
    scenario: name,
    rps: Math.round(requests / seconds),
    // The median round's median, and the worst round's p99.
    p50: p50s[Math.floor(p50s.length / 2)]!,
    p99: Math.max(...rows.map((row) => row.p99)),
    non2xx: rows.reduce((sum, row) => sum + row.non2xx, 0),
    requests,
    seconds,
  };
}

/** A pool of rotating tokens: each request takes one, its answer gives the successor back. */
export function tokenPool(tokens: string[], pick: (body: Record<string, string>) => string) {
  const pool = [...tokens];
  return {
    take: () => pool.shift(),
    give: (status: number, body: string) => {
      if (status === 200) pool.push(pick(JSON.parse(body) as Record<string, string>));
    },
  };
}

export const form = (values: Record<string, string>) => new URLSearchParams(values).toString();
export const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
