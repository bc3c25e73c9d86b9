import { randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, type JWTHeaderParameters } from 'jose';
import { signJwt } from '../keys/sign-jwt';
import type { SigningKeys } from '../keys/signing-keys';
import { hashToken } from './tokens';
import { VerifiedClaimsCache } from './verified-claims-cache';

export type AccessClaims = { userId: string; sessionId: string };

// First-party access tokens are typed (RFC 9068) and audience-bound, so an ID token or a
// token minted for a service can never pass for one.
const TYPE = 'at+jwt';
const firstPartyAudience = (issuer: string) => `${issuer}/api`;
// About 2 MB at most: far more devices than a home lab has, each checked once per token.
const VERIFIED_CLAIMS_CACHED = 10_000;

export class AccessTokens {
  // With the key that signed each token: one deleted since (rotate-keys --now) no longer vouches for it.
  private readonly verified = new VerifiedClaimsCache<{ claims: AccessClaims; kid: string }>(VERIFIED_CLAIMS_CACHED);

  constructor(
    private readonly keys: SigningKeys,
    private readonly issuer: string,
    private readonly ttlSeconds: number,
    private readonly clock: () => number,
  ) {}

  async issue(claims: AccessClaims): Promise<string> {
    const { kid, key } = await this.keys.signingKey('ES256');
    const now = Math.floor(this.clock() / 1000);
    return signJwt('ES256', key, { kid, typ: TYPE }, {
      sid: claims.sessionId,
      iss: this.issuer,
      aud: firstPartyAudience(this.issuer),
      sub: claims.userId,
      jti: randomUUID(),
      iat: now,
      exp: now + this.ttlSeconds,
    });
  }

  /** The claims of a valid token, or undefined for anything forged, foreign or expired. */
  async verify(token: string): Promise<AccessClaims | undefined> {
    const tokenHash = hashToken(token);
    const cached = this.verified.get(tokenHash, this.clock());
    if (cached) return (await this.keys.verificationKey(cached.kid)) ? cached.claims : undefined;
    try {
      const { payload, protectedHeader } = await jwtVerify(token, async (header: JWTHeaderParameters) => {
        const key = header.kid ? await this.keys.verificationKey(header.kid) : undefined;
        if (!key) throw new joseErrors.JWKSNoMatchingKey();
        return key;
      }, {
        algorithms: ['ES256'],
        typ: TYPE,
        issuer: this.issuer,
        audience: firstPartyAudience(this.issuer),
        currentDate: new Date(this.clock()),
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      if (typeof payload.sid !== 'string' || typeof payload.sub !== 'string') return undefined;
      const claims = { userId: payload.sub, sessionId: payload.sid };
      this.verified.set(tokenHash, { claims, kid: protectedHeader.kid! }, payload.exp! * 1000);
      return claims;
    } catch {
      return undefined;
    }
  }
}
