/**
 * The project runs on Node 24 LTS and says so everywhere a machine or a person reads it: the
 * engines field, .nvmrc / .node-version, the Docker images, the preinstall check, the script that
 * installs Node 24 from the npm registry, and the Node these tests run on.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');
const text = (p: string) => readFileSync(join(root, p), 'utf8');

describe('Node 24 is the runtime', () => {
  it('these tests run on Node 24', () => {
    expect(process.versions.node.split('.')[0]).toBe('24');
  });

  it('package.json, .nvmrc and .node-version name 24; the preinstall check runs first', () => {
    const pkg = JSON.parse(text('package.json'));
    expect(pkg.engines.node).toBe('>=24');
    expect(text('.nvmrc').trim()).toBe('24');
    expect(text('.node-version').trim()).toBe('24');
    expect(pkg.scripts.preinstall).toBe('node scripts/check-node.cjs');
  });

  it('every stage of the Docker image is on the Node 24 image', () => {
    const froms = text('deploy/Dockerfile')
      .split('\n')
      .filter((l) => l.startsWith('FROM '));
    expect(froms.length).toBeGreaterThan(0);
    for (const f of froms) expect(f).toMatch(/^FROM node:24-bookworm-slim AS /);
  });

  it('the preinstall check refuses an older Node with the command that fixes it, and lets 24 through', () => {
    const old = spawnSync(process.execPath, ['-e', "Object.defineProperty(process.versions,'node',{value:'20.20.2'});require('./scripts/check-node.cjs')"], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(old.status).toBe(1);
    expect(old.stderr).toContain('needs Node 24');
    expect(old.stderr).toContain('. scripts/ensure-node.sh');
    const ok = spawnSync(process.execPath, ['scripts/check-node.cjs'], { cwd: root, encoding: 'utf8' });
    expect(ok.status).toBe(0);
  });

  it('ensure-node.sh pins one version of 24 (and the 20 the tests refuse) with their registry checksums, and .ci/run sources it before npm ci', () => {
    const script = text('scripts/ensure-node.sh');
    const want = script.match(/want=(\d+\.\d+\.\d+)/)?.[1];
    expect(want?.split('.')[0]).toBe('24');
    expect(script.match(/sha512-[A-Za-z0-9+/]+=*/g)?.length).toBe(4);
    const ci = text('.ci/run');
    const sourced = ci.indexOf('. scripts/ensure-node.sh');
    expect(sourced).toBeGreaterThan(-1);
    expect(sourced).toBeLessThan(ci.indexOf('npm ci'));
  });

  it('ensure-node.sh, executed on a machine that already has Node 24, names that Node and installs nothing', () => {
    const r = spawnSync('bash', ['scripts/ensure-node.sh'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${join(process.execPath, '..')}:${process.env.PATH}` },
    });
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(join(process.execPath, '..'));
    expect(r.stderr).toBe('');
  });
});
