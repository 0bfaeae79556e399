/** server.mjs refuses to start when it could not seal leads at rest (no key in a deployment, a malformed key anywhere), and says why. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('server start', () => {
  it('a deployment without LEADS_ENCRYPTION_KEY exits 1 with the reason', () => {
    const r = spawnSync('node', ['server.mjs'], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, LOANSITES_DEPLOYMENT: 'production', LEADS_ENCRYPTION_KEY: '', PORT: '0' },
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('LEADS_ENCRYPTION_KEY is not set');
  });

  it.each([
    ['a malformed key', { LEADS_ENCRYPTION_KEY: 'abc' }, 'LEADS_ENCRYPTION_KEY is not a valid key'],
    ['a malformed key in a deployment', { LEADS_ENCRYPTION_KEY: 'abc', LOANSITES_DEPLOYMENT: 'production' }, 'LEADS_ENCRYPTION_KEY is not a valid key'],
    ['a malformed older key', { LEADS_ENCRYPTION_KEYS: `${'a'.repeat(64)},${'b'.repeat(63)}` }, 'LEADS_ENCRYPTION_KEYS (key 2 of 2) is not a valid key'],
  ])('%s: exits 1 with the reason, before serving anything', (_label, env, reason) => {
    const r = spawnSync('node', ['server.mjs'], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, LOANSITES_DEPLOYMENT: '', LEADS_ENCRYPTION_KEY: '', LEADS_ENCRYPTION_KEYS: '', PORT: '0', ...env },
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(reason);
  });
});
