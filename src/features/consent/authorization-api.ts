import { authorizationCheckSchema, codeResponseSchema, oauthErrorSchema, type AuthorizationCheck, type AuthorizationParams, type CodeRequest, type OAuthErrorBody } from '../../../contract/oauth';
import type { BrokerConnection } from '../../broker/connect';

export type CheckResult = { ok: true; check: AuthorizationCheck } | { ok: false; error: OAuthErrorBody };
export type CodeResult = { ok: true; redirectTo: string } | { ok: false; status: number; error: OAuthErrorBody };

const asQuery = (params: AuthorizationParams) => new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));

async function oauthError(response: Response): Promise<OAuthErrorBody> {
  const parsed = oauthErrorSchema.safeParse(await response.json().catch(() => null));
  return parsed.success ? parsed.data : { error: 'server_error', error_description: 'The sign-in service did not answer as expected' };
}

/**
 * A 5xx to the check: Home Guard failed, or the proxy in front of it answered while it restarts.
 * The request may be fine, so it is waited on as when no answer came, not refused.
 */
export class NoAnswer extends Error {
  constructor(status: number) {
    super(`Home Guard did not answer as it should (HTTP ${status}). It may be restarting: try again in a moment.`);
    this.name = 'NoAnswer';
  }
}

/** Validates the request before anyone signs in (public). A parameter the service repeated is sent twice, for the server to refuse. */
export async function checkAuthorization(params: AuthorizationParams, repeated: readonly string[] = []): Promise<CheckResult> {
  const query = asQuery(params);
  for (const name of repeated) query.append(name, query.get(name) ?? '');
  const response = await fetch(`/api/v1/oauth/authorize?${query}`);
  if (response.status >= 500) throw new NoAnswer(response.status);
  if (response.ok) return { ok: true, check: authorizationCheckSchema.parse(await response.json()) };
  return { ok: false, error: await oauthError(response) };
}

/** Asks for a code for the active account (the broker adds its token). */
export async function requestCode(broker: Pick<BrokerConnection, 'fetch'>, params: CodeRequest): Promise<CodeResult> {
  const response = await broker.fetch('/api/v1/oauth/code', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) });
  // if_approved, and nothing approved before to go on: the consent screen asks
  if (response.status === 204) return { ok: false, status: 204, error: { error: 'consent_required' } };
  if (response.ok) return { ok: true, redirectTo: codeResponseSchema.parse(await response.json()).redirect_to };
  return { ok: false, status: response.status, error: await oauthError(response) };
}
