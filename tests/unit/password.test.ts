import { describe, expect, it } from 'vitest';
import { DUMMY_HASH, hashPassword, verifyPassword } from '../../src/server/lib/password';

describe('password hashing', () => {
  it('verifies the right password only, with a salt per hash', async () => {
    const h1 = await hashPassword('Bus@2026');
    const h2 = await hashPassword('Bus@2026');
    expect(h1).not.toBe(h2);
    expect(h1.startsWith('scrypt$')).toBe(true);
    expect(await verifyPassword('Bus@2026', h1)).toBe(true);
    expect(await verifyPassword('bus@2026', h1)).toBe(false);
  });

  it('never matches the dummy hash or a malformed one', async () => {
    expect(await verifyPassword('', DUMMY_HASH)).toBe(false);
    expect(await verifyPassword('x', 'md5$abc')).toBe(false);
  });
});
