/**
 * The lead keys: a malformed key is refused with the reason (never a 500 per request later), a
 * sealed value names its key, older keys keep opening what they sealed, `npm run keys -- rotate`
 * re-seals everything with the current key on both real databases, pending deliveries go out
 * throughout, and the start-up check names the key the newest row needs. A development key is
 * generated outside data/.
 */
import { spawnSync } from 'node:child_process';
import { createCipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDue } from '../../engine/outbox/deliver';
import { leadKeyProblem } from '../../engine/keys/keyFormat.mjs';
import { checkNewestSealed, resealAll } from '../../engine/leads/rotation';
import { keyIdOf, keyringOf, leadKeyring, MissingLeadKey, openText, sealedKeyId, sealText } from '../../engine/keys/sealing';
import { migrateStore, openStore, storeKindOf, type Store, type StoreOptions } from '../../engine/store/db';
import { insertLead, type LeadsTable } from '../../engine/store/leads';
import { startBuyer, type Buyer } from '../support/buyer';
import { startPostgres, type RunningPostgres } from '../support/postgres';

const OLD = '1'.repeat(64);
const NEW = Buffer.alloc(32, 9).toString('base64');
const [oldKey, newKey] = [Buffer.from(OLD, 'hex'), Buffer.from(NEW, 'base64')];
const SECRET = 'rotation-buyer-secret-1';
const tmp = mkdtempSync(join(tmpdir(), 'loansites-keys-'));
let postgres: RunningPostgres | undefined;
let buyer: Buyer;

beforeAll(async () => {
  [postgres, buyer] = await Promise.all([startPostgres(), startBuyer(SECRET)]);
  process.env.LEAD_DESTINATIONS = JSON.stringify({ weloans: [{ name: 'buyer', url: buyer.url, secret: SECRET }] });
}, 120_000);
afterAll(async () => {
  await Promise.all([postgres?.stop(), buyer?.close()]);
  rmSync(tmp, { recursive: true, force: true });
});

/** A value as sealed before key ids ("v1.<iv>.<ciphertext+tag>"), as older databases hold them. */
function sealV1(plain: string, key: Buffer): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  return `v1.${iv.toString('base64url')}.${Buffer.concat([c.update(plain, 'utf8'), c.final(), c.getAuthTag()]).toString('base64url')}`;
}

describe('key configuration', () => {
  it.each([
    [{ LEADS_ENCRYPTION_KEY: 'abc' }, 'LEADS_ENCRYPTION_KEY is not a valid key (3 characters)'],
    [{ LEADS_ENCRYPTION_KEY: 'g'.repeat(64) }, 'LEADS_ENCRYPTION_KEY is not a valid key'],
    [{ LEADS_ENCRYPTION_KEYS: `${OLD},abc` }, 'LEADS_ENCRYPTION_KEYS (key 2 of 2) is not a valid key'],
    [{ LOANSITES_DEPLOYMENT: 'production' }, 'LEADS_ENCRYPTION_KEY is not set'],
    [{ LOANSITES_DEPLOYMENT: 'production', LEADS_ENCRYPTION_KEY: 'abc' }, 'is not a valid key'],
  ])('%j is refused: %s', (env, reason) => {
    expect(leadKeyProblem(env)).toContain(reason);
    expect(leadKeyProblem(env)).not.toContain('abc');
  });
  it.each([
    [{}],
    [{ LEADS_ENCRYPTION_KEY: OLD }],
    [{ LEADS_ENCRYPTION_KEY: NEW }],
    [{ LEADS_ENCRYPTION_KEYS: `${NEW}, ${OLD}` }],
    [{ LEADS_ENCRYPTION_KEY: `${NEW},${OLD}` }],
  ])('%j is fine', (env) => expect(leadKeyProblem(env)).toBeUndefined());
  it('a development key is generated in the user configuration directory, not under data/', () => {
    const home = join(tmp, 'config');
    const ring = leadKeyring({ XDG_CONFIG_HOME: home });
    expect(readFileSync(join(home, 'loansites', 'leads.key'), 'utf8').trim()).toBe(ring.current.key.toString('hex'));
    expect(existsSync(join(home, 'loansites', 'data'))).toBe(false);
    expect(() => leadKeyring({ XDG_CONFIG_HOME: join(tmp, 'other'), LOANSITES_DEPLOYMENT: 'production' })).toThrow(MissingLeadKey);
    expect(existsSync(join(tmp, 'other'))).toBe(false);
  });
});

describe('keys named in sealed values', () => {
  it('a value names the key that sealed it; the older keys of the list open theirs, a missing key is named', () => {
    const sealed = sealText('{"dateOfBirth":"1990-04-02"}', keyringOf([oldKey]));
    expect(sealedKeyId(sealed)).toBe(keyIdOf(oldKey));
    expect(openText(sealed, keyringOf([newKey, oldKey]))).toBe('{"dateOfBirth":"1990-04-02"}');
    expect(() => openText(sealed, keyringOf([newKey]))).toThrow(`sealed with lead key ${keyIdOf(oldKey)}, which is not among the configured keys`);
    expect(sealedKeyId(sealText('x', keyringOf([newKey, oldKey])))).toBe(keyIdOf(newKey));
    expect(openText(sealV1('legacy', oldKey), keyringOf([newKey, oldKey]))).toBe('legacy');
  });
});

let n = 0;
const lead = (sealed: string, at: string): Omit<LeadsTable, 'id'> => ({
  brand: 'weloans',
  idempotency_key: `rotate-${++n}-abcdefghijklmnop`,
  created_at: at,
  loan_kind: 'general',
  amount: 900,
  zip: '78701',
  state: 'tx',
  city: 'Austin',
  country: 'US',
  region: 'TX',
  currency: 'USD',
  purpose: '',
  vehicle: '',
  first_name: 'Bo',
  last_name: 'Lee',
  email: 'bo@example.org',
  phone: '5125550199',
  income_source: 'employment',
  pay_frequency: 'weekly',
  sealed,
  consent_version: 'tcpa-2026-11',
  consent_text: 't',
  consent_hash: 'h',
  source: 's',
  source2: '',
  click_id: '',
  session_uuid: '',
  privacy_opt_out: 0,
  ip: '',
  user_agent: '',
  host: 'weloans.com',
  environment: 'production',
});

describe.each([
  ['SQLite', (): StoreOptions => ({ url: '', file: join(tmp, 'rotate.sqlite') })],
  ['PostgreSQL', (): StoreOptions => ({ url: postgres!.url })],
])('rotation on %s', (_kind, options) => {
  let db: Store;
  beforeAll(async () => {
    db = openStore(options());
    await migrateStore(db);
  });
  afterAll(() => db?.destroy());

  it('a pending delivery sealed with the old key still goes out after the switch; rotate re-seals every row; the old key can then go', async () => {
    const dob = '1979-12-31';
    const at = '2026-11-20T10:00:00.000Z';
    const sensitive = JSON.stringify({ dateOfBirth: dob, monthlyIncome: 2100 });
    const pending = await insertLead(db, lead(sealText(sensitive, oldKey), at), ['buyer']);
    const legacy = await insertLead(db, lead(sealV1(sensitive, oldKey), '2026-11-20T10:00:01.000Z'), []);
    // a form trace stored before traces were sealed: plain JSON
    await db
      .insertInto('form_traces')
      .values({
        id: `ft_plain_${n}`,
        brand: 'weloans',
        client_id: 'c',
        type: 'general',
        trace: JSON.stringify({ request: { body: { dob } } }),
        ip: '',
        created_at: at,
      })
      .execute();

    // The current keys cannot open the newest row: the start-up check says which key it needs.
    expect(await checkNewestSealed(db, keyringOf([newKey]))).toContain('cannot be opened with the configured lead keys');
    expect(await checkNewestSealed(db, keyringOf([newKey]))).toContain('LEADS_ENCRYPTION_KEYS');
    expect(await checkNewestSealed(db, keyringOf([newKey, oldKey]))).toBeUndefined();

    // The switch: the new key first, the old one after it.
    process.env.LEADS_ENCRYPTION_KEYS = `${NEW},${OLD}`;
    try {
      const before = buyer.received.length;
      const round = await deliverDue(db, storeKindOf(options()), { worker: 'rot', now: () => new Date('2026-11-20T10:00:05.000Z') });
      expect(round).toMatchObject({ delivered: 1, failed: 0 });
      expect(buyer.received.slice(before).map((r) => [r.id, r.body.dateOfBirth])).toEqual([[pending.id, dob]]);

      const report = await resealAll(db, keyringOf([newKey, oldKey]), 1);
      expect(report).toMatchObject({ leads: 2, formTraces: 1, unopened: [] });
      expect(await resealAll(db, keyringOf([newKey, oldKey]))).toMatchObject({ leads: 0, formTraces: 0 });
    } finally {
      delete process.env.LEADS_ENCRYPTION_KEYS;
    }
    const onlyNew = keyringOf([newKey]);
    for (const id of [pending.id, legacy.id]) {
      const row = await db.selectFrom('leads').select('sealed').where('id', '=', id).executeTakeFirstOrThrow();
      expect(sealedKeyId(row.sealed)).toBe(keyIdOf(newKey));
      expect(JSON.parse(openText(row.sealed, onlyNew))).toEqual({ dateOfBirth: dob, monthlyIncome: 2100 });
    }
    const trace = await db.selectFrom('form_traces').select('trace').where('id', '=', `ft_plain_${n}`).executeTakeFirstOrThrow();
    expect(trace.trace).not.toContain(dob);
    expect(openText(trace.trace, onlyNew)).toContain(dob);
    expect(await checkNewestSealed(db, onlyNew)).toBeUndefined();
  });
});

describe('npm run keys -- rotate', () => {
  it('re-seals a SQLite store with the current key and says so', async () => {
    const file = join(tmp, 'cli-rotate.sqlite');
    const db = openStore({ url: '', file });
    await migrateStore(db);
    await insertLead(db, lead(sealText('{"dateOfBirth":"1980-01-01","monthlyIncome":1}', oldKey), new Date().toISOString()), []);
    await db.destroy();
    const run = (keys: string) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'scripts/keys.ts', 'rotate'], {
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, LOANSITES_DB_FILE: file, DATABASE_URL: '', LEADS_ENCRYPTION_KEYS: keys, LEADS_ENCRYPTION_KEY: '' },
      });
    const missingOld = run(NEW);
    expect(missingOld.status).toBe(1);
    expect(missingOld.stderr).toContain('open with none of the configured keys');
    const ok = run(`${NEW},${OLD}`);
    expect(ok.stdout).toContain(`re-sealed 1 lead(s) and 0 form trace(s) with lead key ${keyIdOf(newKey)}`);
    expect(ok.status).toBe(0);
  }, 120_000);
});
