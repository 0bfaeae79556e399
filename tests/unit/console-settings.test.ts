/**
 * The settings posts (POST /api/console/settings): a rate typed as people write it becomes
 * millionths of a dollar or is refused; a user saves their own time zone and currency (a zone off
 * by a fraction of an hour, an unknown currency refused with the reason), audited; only an admin
 * sets a rate or an alert, and never without the page's CSRF token.
 */
import { describe, expect, it } from 'vitest';
import { hashPassword } from '../../engine/console/passwords';
import { rateMicros, settingsRoute } from '../../engine/console/settingsRoutes';
import { SETTINGS_FAILED, SETTINGS_NOTES } from '../../engine/console/settingsNotes';
import { addUser, findUser } from '../../engine/store/console';
import { currencyRates } from '../../engine/store/currencyRates';
import { bothStores, migratedStore } from '../support/bothStores';
import { consolePost, consoleSignIn } from '../support/consoleForm';

describe('rates as typed', () => {
  it.each([
    ['0.73', 730_000],
    ['1', 1_000_000],
    ['0.000001', 1],
    [' 1.5 ', 1_500_000],
    ['1000', 1_000_000_000],
    ['0', undefined],
    ['1000.000001', undefined],
    ['0.7300001', undefined],
    ['-1', undefined],
    ['1e3', undefined],
    ['0,73', undefined],
    ['', undefined],
  ])('%j → %j', (text, micros) => {
    expect(rateMicros(text)).toBe(micros);
  });
});

const stores = bothStores('loansites-settings-');
const cheap = { N: 2 ** 12, r: 8, p: 1 };

describe.each(stores.kinds('settings.sqlite'))('%s', (_kind, options) => {
  const db = migratedStore(options);
  const post = (who: { cookie: string; csrf: string }, fields: Record<string, string>) =>
    settingsRoute(db(), consolePost({ csrf: who.csrf, ...fields }, { cookie: who.cookie }));

  it('a user saves their own time zone and currency; bad ones come back with the reason', async () => {
    await addUser(db(), { email: 'ana@example.com', role: 'analyst', passwordHash: await hashPassword('ana passphrase 12', cheap) });
    const ana = (await consoleSignIn(db(), 'ana@example.com', 'ana passphrase 12'))!;
    expect(await post(ana, { op: 'view', zone: 'Asia/Kolkata', currency: 'USD' })).toMatchObject({ headers: { Location: '/account?note=zone_fraction' } });
    expect(await post(ana, { op: 'view', zone: 'Not/AZone', currency: 'USD' })).toMatchObject({ headers: { Location: '/account?note=zone_unknown' } });
    expect(await post(ana, { op: 'view', zone: '<script>', currency: 'USD' })).toMatchObject({ headers: { Location: '/account?note=zone_format' } });
    expect(await post(ana, { op: 'view', zone: 'America/New_York', currency: 'EUR' })).toMatchObject({ headers: { Location: '/account?note=currency' } });
    expect(await post(ana, { op: 'view', zone: 'America/New_York', currency: 'CAD' })).toMatchObject({ headers: { Location: '/account?note=view' } });
    expect(await findUser(db(), 'ana@example.com')).toMatchObject({ time_zone: 'America/New_York', currency: 'CAD' });
    const audit = await db().selectFrom('console_audit').select(['actor', 'detail']).where('action', '=', 'settings_changed').execute();
    expect(audit.map((a) => [a.actor, JSON.parse(a.detail)])).toEqual([
      ['ana@example.com', { before: { zone: '', currency: '' }, after: { zone: 'America/New_York', currency: 'CAD' } }],
    ]);
    // an analyst sets no rate and no alert
    await expect(post(ana, { op: 'rate', currency: 'CAD', rate: '0.73' })).rejects.toMatchObject({ status: 403 });
    await expect(post(ana, { op: 'alert-add', kind: 'cap' })).rejects.toMatchObject({ status: 403 });
  });

  it('an admin sets a rate with the page’s CSRF token only', async () => {
    await addUser(db(), { email: 'boss@example.com', role: 'admin', passwordHash: await hashPassword('boss passphrase 1', cheap) });
    const boss = (await consoleSignIn(db(), 'boss@example.com', 'boss passphrase 1'))!;
    await expect(settingsRoute(db(), consolePost({ op: 'rate', currency: 'CAD', rate: '0.73', csrf: 'x' }, { cookie: boss.cookie }))).rejects.toMatchObject({
      status: 403,
    });
    expect(await post(boss, { op: 'rate', currency: 'USD', rate: '2' })).toMatchObject({ headers: { Location: '/settings?note=rate_usd' } });
    expect(await post(boss, { op: 'rate', currency: 'CAD', rate: 'lots' })).toMatchObject({ headers: { Location: '/settings?note=rate_invalid' } });
    expect(await post(boss, { op: 'rate', currency: 'AUD', rate: '0.65' })).toMatchObject({ headers: { Location: '/settings?note=rate' } });
    expect(await currencyRates(db())).toEqual(new Map([['AUD', 650_000]]));
    expect(await post(boss, { op: 'alert-add', kind: 'acceptance', threshold: '101', window: '2' })).toMatchObject({
      headers: { Location: '/settings?note=alert_threshold' },
    });
  });

  it('over the rate limit, a change comes back to its page saying so, nothing saved; an API client asking for JSON gets the 429', async () => {
    const email = `busy-${_kind.toLowerCase()}@example.com`;
    await addUser(db(), { email, role: 'admin', passwordHash: await hashPassword('busy passphrase 1', cheap) });
    const busy = (await consoleSignIn(db(), email, 'busy passphrase 1'))!;
    let r = await post(busy, { op: 'view', zone: 'Not/AZone', currency: 'USD' });
    for (let i = 0; i < 40 && r.headers?.Location !== '/account?note=limited'; i++) r = await post(busy, { op: 'view', zone: 'Not/AZone', currency: 'USD' });
    expect(r).toMatchObject({ status: 303, headers: { Location: '/account?note=limited' } });
    expect(await post(busy, { op: 'rate', currency: 'CAD', rate: '0.5' })).toMatchObject({ status: 303, headers: { Location: '/settings?note=limited' } });
    await expect(
      settingsRoute(db(), consolePost({ csrf: busy.csrf, op: 'rate', currency: 'CAD', rate: '0.5' }, { cookie: busy.cookie, accept: 'application/json' })),
    ).rejects.toMatchObject({ status: 429 });
    expect((await currencyRates(db())).get('CAD')).toBeUndefined();
    expect(SETTINGS_NOTES.limited).toBe('Too many changes to settings in the last minute, so nothing was saved. Wait a minute and try again.');
    expect(SETTINGS_FAILED).toContain('limited');
  });
});
