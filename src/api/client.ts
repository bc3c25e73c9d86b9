import type { z } from 'zod';
import type { BrokerConnection } from '../broker/connect';
import { ApiError } from './errors';

type Fetcher = Pick<BrokerConnection, 'fetch'>;

/**
 * A first-party API call with the active account's token (attached by the broker). JSON in and
 * out; an answer other than 200/201 throws an ApiError carrying the spec's message.
 */
export async function callApi<T>(broker: Fetcher, method: string, path: string, schema: z.ZodType<T>, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const init: RequestInit = { method, headers };
  if (body instanceof FormData) init.body = body;
  else {
    init.headers = { ...headers, 'content-type': 'application/json' };
    init.body = body === undefined ? (method === 'GET' ? null : '{}') : JSON.stringify(body);
  }
  const response = await broker.fetch(path, init);
  if (response.status !== 200 && response.status !== 201) throw new ApiError(response.status, await response.text().catch(() => ''));
  return schema.parse(await response.json());
}

/** For calls that carry no account (a password reset asked for from the sign-in screens). */
export const withoutAccount: Fetcher = { fetch: (input, init) => fetch(input, init) };
