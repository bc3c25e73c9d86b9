/**
 * Token encryption at rest (spec §9): AES-GCM 256 with a key derived by PBKDF2 (100000 ×
 * SHA-256) from the device fingerprint hash, and a random 12-byte IV per value.
 */
export const PBKDF2_ITERATIONS = 100_000;
const IV_BYTES = 12;
// A fixed, application-wide salt: the secret input is the per-device fingerprint hash.
const SALT = new TextEncoder().encode('home-guard/guard-local/v3');

export type Sealed = { data: Uint8Array; iv: Uint8Array };

export async function deriveVaultKey(deviceId: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', new TextEncoder().encode(deviceId), 'PBKDF2', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'PBKDF2', salt: SALT, iterations: PBKDF2_ITERATIONS, hash: 'SHA-256' },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

export async function seal(key: CryptoKey, plaintext: string): Promise<Sealed> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const data = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(plaintext));
  return { data: new Uint8Array(data), iv };
}

/** The plaintext, or an error when the key is wrong or the bytes were tampered with. */
export async function open(key: CryptoKey, sealed: Sealed): Promise<string> {
  const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: sealed.iv as Uint8Array<ArrayBuffer> }, key, sealed.data as Uint8Array<ArrayBuffer>);
  return new TextDecoder().decode(plain);
}

/** SHA-256 hex of the given text: the device id is this hash of the browser and screen traits. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}
