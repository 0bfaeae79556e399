/**
 * npm run brands:status and brands:pull against a real store: status lists the brands whose
 * published revision differs from their file (and a studio brand with no file yet); pull writes
 * the revision into the file changing only the lines that changed — the file's own layout kept,
 * so the git diff is the edit — and a brand made in the studio gets a new file; afterwards status
 * has nothing to list.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Brand } from '../../schemas/brand.types';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { publishBrand, saveBrandDraft } from '../../engine/store/brandRevisions';

const work = mkdtempSync(join(tmpdir(), 'brands-sync-'));
const dbFile = join(work, 'store.sqlite');
let db: Store;
const original = readFileSync('brands/ipaydayloans.json', 'utf8');

beforeAll(async () => {
  mkdirSync(join(work, 'brands'));
  cpSync('brands/ipaydayloans.json', join(work, 'brands/ipaydayloans.json'));
  cpSync('.prettierrc.json', join(work, '.prettierrc.json'));
  db = openStore({ url: '', file: dbFile });
  await migrateStore(db);
});
afterAll(async () => {
  await db?.destroy();
  rmSync(work, { recursive: true, force: true });
});

const run = (command: 'pull' | 'status') => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/brands-sync.ts', command], {
    cwd: process.cwd(),
    encoding: 'utf8',
    env: { ...process.env, LOANSITES_ROOT: work, LOANSITES_DB_FILE: dbFile, DATABASE_URL: '' },
  });
  return { status: r.status, out: r.stdout, err: r.stderr };
};

const publish = async (id: string, document: Brand, file: { file: string; text: string } | null) => {
  const draft = await saveBrandDraft(db, { id, document, expectedVersion: 0, author: 'ed@example.com', file });
  await publishBrand(db, { id, version: draft.version, author: 'ed@example.com' });
};

const publishAgain = async (id: string, document: Brand) => {
  const draft = await saveBrandDraft(db, { id, document, expectedVersion: 1, author: 'ed@example.com', file: null });
  await publishBrand(db, { id, version: draft.version, author: 'ed@example.com' });
};

describe('brands:status and brands:pull', () => {
  it('list the differing brands, write them with a diff of the changed lines only, and then agree', async () => {
    expect(run('status').out).toContain('every published brand is the same as its file');
    const { $schema: _s, ...doc } = JSON.parse(original) as Brand & { $schema: string };
    const edited = structuredClone(doc) as Brand;
    edited.config.theme = '#0a4a85';
    edited.hosts = [...edited.hosts, 'ipaydayloans.net'];
    await publish('ipaydayloans', edited, { file: 'brands/ipaydayloans.json', text: original });
    // a brand of its own: its own hosts, and no blog host (ipaydayloans's is its alone)
    const { blogHost: _blog, ...single } = structuredClone(doc);
    const made = { ...single, id: 'studiomade', hosts: ['studiomade.example'] } as Brand;
    await publish('studiomade', made, null);

    const status = run('status');
    expect(status.err).toBe('');
    expect(status.out).toMatch(/^ipaydayloans\tversion 1 published by ed@example\.com at .*\tbrands\/ipaydayloans\.json: differs from the file$/m);
    expect(status.out).toMatch(/^studiomade\t.*brands\/studiomade\.json: no file yet$/m);

    const pull = run('pull');
    expect(pull.err).toBe('');
    expect(pull.out).toContain('wrote brands/ipaydayloans.json');
    const pulled = readFileSync(join(work, 'brands/ipaydayloans.json'), 'utf8');
    const before = original.split('\n');
    const after = pulled.split('\n');
    expect(after).toHaveLength(before.length);
    const changed = after.flatMap((line, i) => (line === before[i] ? [] : [line]));
    expect(changed).toEqual(['  "hosts": ["ipaydayloans.com", "www.ipaydayloans.com", "ipaydayloans.net"],', '    "theme": "#0a4a85",']);
    const made2 = readFileSync(join(work, 'brands/studiomade.json'), 'utf8');
    expect(made2.startsWith('{\n  "$schema": "../schemas/brand.schema.json",\n  "id": "studiomade",')).toBe(true);

    expect(run('status').out).toContain('every published brand is the same as its file');
  });

  it('a brand file that is not JSON is named with its line; pull then writes no file, not the brands before it', async () => {
    const { $schema: _s, ...doc } = JSON.parse(original) as Brand & { $schema: string };
    const ipd = JSON.parse(readFileSync(join(work, 'brands/ipaydayloans.json'), 'utf8')) as Brand & { $schema?: string };
    const { $schema: _s2, ...ipdDoc } = ipd;
    ipdDoc.footer = { ...ipdDoc.footer, about: 'Edited again in the studio.' };
    await publishAgain('ipaydayloans', ipdDoc as Brand);
    // "zzhalf" sorts after ipaydayloans: the old pull wrote ipaydayloans, then stopped on it
    const { blogHost: _blog, ...single } = structuredClone(doc);
    const half = { ...single, id: 'zzhalf', hosts: ['zzhalf.example'] } as Brand;
    const text = `{\n  "id": "zzhalf",,\n  "name": "Half"\n}\n`;
    writeFileSync(join(work, 'brands/zzhalf.json'), text);
    await publish('zzhalf', half, { file: 'brands/zzhalf.json', text });
    const before = readFileSync(join(work, 'brands/ipaydayloans.json'), 'utf8');

    const pull = run('pull');
    expect(pull.status).toBe(1);
    expect(pull.err).toContain('brands:pull: brands/zzhalf.json:2:18 not valid JSON');
    expect(pull.err).toContain('brands:pull: nothing was written');
    expect(readFileSync(join(work, 'brands/ipaydayloans.json'), 'utf8')).toBe(before);

    const status = run('status');
    expect(status.status).toBe(1);
    expect(status.out).toMatch(/^ipaydayloans\tversion 2 .*: differs/m);
    expect(status.err).toContain('brands:status: brands/zzhalf.json:2:18 not valid JSON');
  });
});
