import autocannon from 'autocannon';

export type Row = { scenario: string; rps: number; p50: number; p99: number; non2xx: number };

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

type Request = { method?: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string };

/**
 * Runs one scenario with autocannon. `next` builds each request (it may take a token from a
 * pool), `done` sees each answer (to put the new token back): a connection is one chain.
 */
export async function scenario(name: string, url: string, next: () => Request | null, done?: (status: number, body: string) => void, amount?: number): Promise<Row> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    ...(amount ? { amount } : { duration: SECONDS }),
    requests: [
      {
        setupRequest: (request: autocannon.Request) => {
          const built = next();
          return built ? { ...request, method: built.method ?? 'GET', path: built.path, headers: { ...(built.headers ?? {}) }, ...(built.body !== undefined ? { body: built.body } : {}) } : request;
        },
        ...(done ? { onResponse: (status: number, body: string) => done(status, body) } : {}),
      },
    ],
  });
  // Total over elapsed time: a fixed-amount run can end inside its first second.
  return { scenario: name, rps: Math.round(result.requests.total / result.duration), p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx + result.errors + result.timeouts };
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
