import { ACCOUNT_HEADER, ACCOUNT_SWITCHED_HEADER } from '../../contract/broker';
import { errorTextOf } from '../../contract/errors';

// What the broker hands a page instead of, or on the way to, the server's own answer.

/**
 * What a refresh came to: a fresh access token, the server's refusal (kept as text, as every call
 * waiting on the one refresh gets its own copy), or undefined when no answer came.
 */
export type Renewal = string | Refusal | undefined;
export type Refusal = { status: number; body: string; headers: Array<[string, string]> };

// What the page reads of a refusal; the rest (length, encoding) described the body as it came.
const REFUSAL_HEADERS = ['content-type', 'retry-after'];

export async function refusalOf(response: Response): Promise<Refusal> {
  const headers = REFUSAL_HEADERS.flatMap((name): Array<[string, string]> => {
    const value = response.headers.get(name);
    return value === null ? [] : [[name, value]];
  });
  return { status: response.status, body: await response.text().catch(() => ''), headers };
}

/**
 * The answer to a call that could not be sent with a token: the refresh's refusal, so the page
 * shows the server's message (§8), or, with no answer, the failure fetch itself would have had:
 * the page says the server cannot be reached, in a worker (where any throw is one) or not.
 */
export function answerInstead(renewal: Refusal | undefined): Response {
  if (!renewal) throw new TypeError('Failed to fetch');
  return new Response(renewal.body, { status: renewal.status, headers: renewal.headers });
}

export function withBearer(request: Request, token: string): Request {
  const headers = new Headers(request.headers);
  headers.set('authorization', `Bearer ${token}`);
  headers.delete(ACCOUNT_HEADER);
  return new Request(request, { headers });
}

/** The page shows another account than the one chosen since (in another tab): its call is not made for this one. */
export function accountSwitched(): Response {
  const body = JSON.stringify({ error: 'Another tab switched to another account. Try again.' });
  return new Response(body, { status: 409, headers: { 'content-type': 'application/json', [ACCOUNT_SWITCHED_HEADER]: '1' } });
}

export async function errorOf(response: Response): Promise<{ error: string; field?: string | undefined }> {
  return errorTextOf(await response.text());
}
