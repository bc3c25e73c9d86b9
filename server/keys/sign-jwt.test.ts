import { createPrivateKey } from 'node:crypto';
import { exportJWK, generateKeyPair, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { SIGNING_ALGS } from './signing-keys';
import { signJwt } from './sign-jwt';

describe('signJwt', () => {
  it.each(SIGNING_ALGS)('signs %s tokens that jose verifies, with the header and claims given', async (alg) => {
    const pair = await generateKeyPair(alg, { extractable: true });
    const key = createPrivateKey({ key: await exportJWK(pair.privateKey), format: 'jwk' });
    const token = await signJwt(alg, key, { kid: 'key-1', typ: 'at+jwt' }, { sub: 'user-1', name: 'Zoë ✓', picture: undefined, exp: 2_000_000_000 });

    const { payload, protectedHeader } = await jwtVerify(token, pair.publicKey, { algorithms: [alg], typ: 'at+jwt' });
    expect(protectedHeader).toEqual({ alg, kid: 'key-1', typ: 'at+jwt' });
    expect(payload).toEqual({ sub: 'user-1', name: 'Zoë ✓', exp: 2_000_000_000 });
  });
});
