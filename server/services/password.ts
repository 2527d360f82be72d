import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashing with scrypt (DESIGN.md section 4: N=2^17, r=8, p=1). The encoded form names its own
 * parameters, "scrypt$17$8$1$<salt b64>$<hash b64>", so stronger settings later still verify old hashes.
 */
const LOG_N = 17;
const R = 8;
const P = 1;
const SALT_BYTES = 16;
const KEY_BYTES = 32;

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(password.normalize('NFKC'), salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** scrypt needs 128 * N * r bytes; the default maxmem (32 MiB) is below that for N=2^17. */
function options(logN: number, r: number, p: number): ScryptOptions {
  const N = 2 ** logN;
  return { N, r, p, maxmem: 128 * N * r * 2 };
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await scrypt(password, salt, KEY_BYTES, options(LOG_N, R, P));
  return ['scrypt', LOG_N, R, P, salt.toString('base64'), key.toString('base64')].join('$');
}

/** False for a wrong password or a malformed hash; the key comparison takes constant time. */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const parts = encoded.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [logN, r, p] = parts.slice(1, 4).map(Number);
  if (![logN, r, p].every(Number.isInteger) || logN < 10 || logN > 22 || r < 1 || r > 32 || p < 1 || p > 16) return false;
  const salt = Buffer.from(parts[4], 'base64');
  const expected = Buffer.from(parts[5], 'base64');
  if (salt.length === 0 || expected.length === 0) return false;
  const actual = await scrypt(password, salt, expected.length, options(logN, r, p));
  return timingSafeEqual(actual, expected);
}

/** True when a stored hash uses weaker parameters than today's and should be replaced at the next login. */
export function needsRehash(encoded: string): boolean {
  const [scheme, logN, r, p] = encoded.split('$');
  return scheme !== 'scrypt' || Number(logN) < LOG_N || Number(r) < R || Number(p) < P;
}
