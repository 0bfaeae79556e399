/**
 * POST /api/console/settings (same-origin form, the session's CSRF token, at most
 * RATE_LIMIT_CONSOLE_SETTINGS posts a minute per user; every change audited):
 * - op=view (any signed-in user): the time zone and currency the user's overview is shown in;
 * - op=rate (admin): what one unit of a currency is worth in US dollars;
 * - op=alert-add / op=alert-remove (admin): an alert rule.
 * A person's mistake goes back to the page with the reason (by key: nothing from the request is
 * echoed into the page); a forged post is a 403.
 */
import type { IncomingMessage } from 'node:http';
import { clientIp, type ApiAnswer } from '../http/api';
import type { Store } from '../store/db';
import { audit } from '../store/console';
import { setCurrencyRate } from '../store/currencyRates';
import { MICROS } from '../traffic/currency';
import { liveBuyers } from '../sale/buyerRevisions';
import { requireUser } from './api';
import { csrfValid } from './csrf';
import { formOutOfDate, refusalError } from './formRefusals';
import { limitedForm, readConsoleForm } from './forms';
import { zoneProblem } from './periods';
import { getCatalog } from '../site/catalog';
import { RULE_PROBLEMS, ruleOf } from './alertRules';
import { addAlertRule, removeAlertRule } from './alerts';
import { CURRENCIES, SETTINGS_NOTES, type SettingsNote } from './settingsNotes';

const RULE = { name: 'console-settings', limit: Number(process.env.RATE_LIMIT_CONSOLE_SETTINGS ?? 30), windowMs: 60_000 };

const back = (page: string, note: SettingsNote): ApiAnswer => ({
  status: 303,
  body: { location: `${page}?note=${note}` },
  headers: { Location: `${page}?note=${note}` },
});

const zoneNote = (problem: string): SettingsNote =>
  problem.includes('written like') ? 'zone_format' : problem.includes('fraction') ? 'zone_fraction' : 'zone_unknown';

/** "0.73" → 730000 millionths; undefined for anything else. */
export function rateMicros(text: string): number | undefined {
  if (!/^\d{1,4}(\.\d{1,6})?$/.test(text.trim())) return undefined;
  const [whole = '0', frac = ''] = text.trim().split('.');
  const micros = Number(whole) * MICROS + Number(frac.padEnd(6, '0'));
  return micros > 0 && micros <= 1000 * MICROS ? micros : undefined;
}

export async function settingsRoute(db: Store, req: IncomingMessage): Promise<ApiAnswer> {
  const form = await readConsoleForm(req);
  const admin = form.op !== 'view';
  const who = await requireUser(
    db,
    { method: 'POST', headers: req.headers as Record<string, string | undefined>, ip: clientIp(req) },
    admin ? 'settings.manage' : 'overview.view',
  );
  if ('refused' in who) throw refusalError(who, admin ? '/settings' : '/account');
  if (!csrfValid(who.token, form.csrf)) throw formOutOfDate(admin ? '/settings' : '/account');
  // the form's own page says so (it runs no script); an API client asking for JSON gets the 429
  const limited = await limitedForm(req.headers, RULE, who.user.email, 'Too many changes to settings', `${admin ? '/settings' : '/account'}?note=limited`);
  if (limited) return limited;
  const actor = who.user.email;
  switch (form.op) {
    case 'view': {
      const zone = (form.zone ?? '').trim();
      const problem = zoneProblem(zone);
      if (problem) return back('/account', zoneNote(problem));
      const currency = form.currency ?? '';
      if (!(CURRENCIES as readonly string[]).includes(currency)) return back('/account', 'currency');
      const before = await db.selectFrom('console_users').select(['time_zone as zone', 'currency']).where('id', '=', who.user.id).executeTakeFirst();
      await db
        .updateTable('console_users')
        .set({ time_zone: zone === 'UTC' ? '' : zone, currency: currency === 'USD' ? '' : currency })
        .where('id', '=', who.user.id)
        .execute();
      await audit(db, { actor, action: 'settings_changed', target: actor, detail: { before, after: { zone, currency } } });
      return back('/account', 'view');
    }
    case 'rate': {
      const currency = form.currency ?? '';
      if (currency === 'USD') return back('/settings', 'rate_usd');
      if (!(CURRENCIES as readonly string[]).includes(currency)) return back('/settings', 'currency');
      const micros = rateMicros(form.rate ?? '');
      if (micros === undefined) return back('/settings', 'rate_invalid');
      await setCurrencyRate(db, currency, micros, actor);
      return back('/settings', 'rate');
    }
    case 'alert-add': {
      const r = ruleOf(form, new Set(liveBuyers().buyers.keys()), new Set(getCatalog().brands.keys()));
      if (!r.ok) return back('/settings', (Object.keys(RULE_PROBLEMS) as SettingsNote[]).find((k) => SETTINGS_NOTES[k] === r.problem) ?? 'op');
      await addAlertRule(db, r.rule, actor);
      return back('/settings', 'alert_added');
    }
    case 'alert-remove':
      return back('/settings', (await removeAlertRule(db, (form.id ?? '').slice(0, 40), actor)) ? 'alert_removed' : 'alert_missing');
    default:
      return back('/settings', 'op');
  }
}
