/** server.mjs refuses to start a deployment that could not seal leads at rest, and says why. */
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
});
