import { createHash } from 'node:crypto';
import { sameBytes } from '../../constant-time';
import { OAuthError } from '../oauth-error';

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

/**
 * At the authorization request: a challenge, when sent, must be an S256 one (plain is refused).
 * A public client must send one (RFC 9700 §2.1.1): PKCE is all that binds its code to it.
 */
export function checkPkceChallenge(challenge: string | undefined, method: string | undefined, required: boolean): { challenge: string | null; method: string | null } {
  if (challenge === undefined) {
    if (method !== undefined) throw new OAuthError('invalid_request', 'code_challenge_method without code_challenge');
    if (required) throw new OAuthError('invalid_request', 'A public client must use PKCE: code_challenge is missing');
    return { challenge: null, method: null };
  }
  if ((method ?? 'plain') !== 'S256') throw new OAuthError('invalid_request', 'code_challenge_method must be S256');
  if (!CHALLENGE.test(challenge)) throw new OAuthError('invalid_request', 'code_challenge is not a valid S256 challenge');
  return { challenge, method: 'S256' };
}

/** At the token endpoint: the verifier must match the challenge; none may be sent without one. */
export function checkPkceVerifier(challenge: string | null, verifier: string | undefined): void {
  if (challenge === null) {
    if (verifier !== undefined) throw new OAuthError('invalid_grant', 'code_verifier sent for a code issued without code_challenge');
    return;
  }
  if (verifier === undefined || !VERIFIER.test(verifier)) throw new OAuthError('invalid_grant', 'code_verifier is missing or malformed');
  const computed = createHash('sha256').update(verifier, 'ascii').digest('base64url');
  if (!sameBytes(computed, challenge)) throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
}
