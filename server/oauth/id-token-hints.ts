import { errors as joseErrors, jwtVerify, type JWTHeaderParameters } from 'jose';
import { ID_TOKEN_ALGS } from '../../contract/services';
import type { SigningKeys } from '../keys/signing-keys';

/** Reads id_token_hint values: ID tokens we issued, possibly expired, naming a user and a session. */
export class IdTokenHints {
  constructor(
    private readonly keys: SigningKeys,
    private readonly issuer: string,
  ) {}

  /** The hint's claims when its signature and issuer are ours (expiry is not required: RP logout sends old ones). */
  async read(hint: string, clientId?: string): Promise<{ sub: string; sid: string | undefined; aud: string[] } | null> {
    try {
      const { payload } = await jwtVerify(
        hint,
        async (header: JWTHeaderParameters) => {
          const key = header.kid ? await this.keys.hintKey(header.kid) : undefined;
          if (!key) throw new joseErrors.JWKSNoMatchingKey();
          return key;
        },
        { issuer: this.issuer, algorithms: [...ID_TOKEN_ALGS], clockTolerance: Number.MAX_SAFE_INTEGER, ...(clientId ? { audience: clientId } : {}) },
      );
      if (typeof payload.sub !== 'string') return null;
      const aud = Array.isArray(payload.aud) ? payload.aud : payload.aud ? [payload.aud] : [];
      return { sub: payload.sub, sid: typeof payload.sid === 'string' ? payload.sid : undefined, aud };
    } catch {
      return null;
    }
  }

  async subjectOf(hint: string, clientId: string): Promise<string | null> {
    return (await this.read(hint, clientId))?.sub ?? null;
  }
}
