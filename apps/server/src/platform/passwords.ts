import { hash, verify } from '@node-rs/argon2';

// argon2id with OWASP's recommended minimum (19 MiB, 2 iterations, 1 lane).
const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/** Hashes a password or PIN with argon2id. */
export function hashPassword(secret: string): Promise<string> {
  return hash(secret, OPTIONS);
}

/** Checks a password or PIN against its stored argon2id hash; a missing hash never matches. */
export async function verifyPassword(storedHash: string | null | undefined, secret: string): Promise<boolean> {
  if (!storedHash) return false;
  try {
    return await verify(storedHash, secret);
  } catch {
    return false;
  }
}
