// The least any Node.js token endpoint does per grant: read the request, sign one ID token on the
// thread pool (as Home Guard and the peer both do), answer JSON. No framework, no client
// authentication, nothing read or stored. Its rate is the ceiling a grant can approach on this
// machine, as the bare argon2id rate is for sign-ins.
import { createHash, generateKeyPairSync, randomBytes, randomUUID, sign } from 'node:crypto';
import { createServer } from 'node:http';

const port = Number(process.env.SIGNING_FLOOR_PORT);
const es256 = process.env.SIGNING_FLOOR_ALG === 'ES256';
const { privateKey } = es256 ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('rsa', { modulusLength: 2048 });
const header = Buffer.from(JSON.stringify({ alg: es256 ? 'ES256' : 'RS256', kid: 'floor', typ: 'JWT' })).toString('base64url');
const issuer = `http://127.0.0.1:${port}`;

createServer((request, response) => {
  request.resume();
  request.once('end', () => {
    const now = Math.floor(Date.now() / 1000);
    const accessToken = randomBytes(32).toString('base64url');
    const claims = {
      sub: 'floor-user', email: 'floor@bench.test', email_verified: true, name: 'Floor Person', auth_time: now,
      at_hash: createHash('sha256').update(accessToken).digest().subarray(0, 16).toString('base64url'),
      azp: 'floor-client', iss: issuer, aud: 'floor-client', jti: randomUUID(), iat: now, exp: now + 900,
    };
    const input = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
    sign('sha256', Buffer.from(input), es256 ? { key: privateKey, dsaEncoding: 'ieee-p1363' } : privateKey, (error, signature) => {
      if (error) {
        response.writeHead(500).end();
        return;
      }
      const body = JSON.stringify({ access_token: accessToken, token_type: 'Bearer', expires_in: 900, id_token: `${input}.${signature.toString('base64url')}`, scope: 'openid email profile' });
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(body);
    });
  });
}).listen(port, '127.0.0.1', () => process.stdout.write('ready\n'));
