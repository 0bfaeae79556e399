/**
 * POST /api/console/export: the leads of a date range (and brand) as a CSV download (each sale's
 * price in its lead's currency and converted to the admin's, with a total line stating the rates), or
 * (kind=google-ads) the Google Ads offline-conversions upload of the leads sold in that range
 * (engine/sale/conversions.ts, as `npm run conversions` writes it); for an admin only, with the
 * session's CSRF token; every export is audited with its range and row count.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getCatalog } from '../site/catalog';
import { ApiError, clientIp, handleApi, type ApiAnswer } from '../http/api';
import type { Store } from '../store/db';
import { audit } from '../store/console';
import { EXPORT_MAX, leadsCsv } from './adminQueries';
import { requireUser } from './api';
import { csv } from '../browser/safeText';
import { googleAdsColumns, soldConversions } from '../sale/conversions';
import { csrfValid } from './csrf';
import { formOutOfDate, refusalError } from './formRefusals';
import { browserFormPost, readConsoleForm } from './forms';
import { overviewQuery } from './range';
import { leadListHref, leadListQuery } from './leadFilter';
import { operatorMoney } from './operatorMoney';
import type { Role } from './roles';

const see = (location: string): ApiAnswer => ({ status: 303, body: { location }, headers: { Location: location } });

export function exportRoute(db: Store, req: IncomingMessage, res: ServerResponse): Promise<void> {
  return handleApi(req, res, () => exportAnswer(db, req));
}

/** The export's answer: the CSV as a download, or a refusal (ApiError). */
export async function exportAnswer(db: Store, req: IncomingMessage): Promise<ApiAnswer> {
  const form = await readConsoleForm(req);
  const who = await requireUser(db, { method: 'POST', headers: req.headers as Record<string, string | undefined>, ip: clientIp(req) }, 'exports.run');
  if ('refused' in who) throw refusalError(who);
  if (!csrfValid(who.token, form.csrf)) throw formOutOfDate();
  const brands = new Set(getCatalog().brands.keys());
  const refused = exportRangeProblem(form, brands, who.user.role);
  // The Exports page runs no script: a range it let through (an end before the start) goes back
  // to it, which says what is wrong above the form, rather than to a page of bare JSON.
  if (refused) return backToExports(form);
  const q = overviewQuery({ from: form.from ?? '', to: form.to ?? '', brand: form.brand ?? '' }, brands);
  if (q.problem) throw new ApiError(400, q.problem.replace(/; showing the last 7 days\./, '.'));
  const range = `${q.from}-${q.to}${q.brand ? `-${q.brand}` : ''}`;
  const brand = q.brand ? { brand: q.brand } : {};
  let out: { text: string; rows: number; file: string; target: string } | undefined;
  if (form.kind === 'google-ads') {
    const name = (form.name ?? '').trim().slice(0, 100) || 'Loan request sold';
    const sold = (await soldConversions(db, { since: new Date(q.filter.from), until: new Date(q.filter.to), ...brand })).filter((c) => c.gclid);
    if (sold.length > EXPORT_MAX) {
      if (browserFormPost(req.headers)) return backToExports(form, true);
      throw new ApiError(413, `More than ${EXPORT_MAX} conversions in this range: export a shorter range or one brand`);
    }
    out = { text: csv(sold, googleAdsColumns(name)), rows: sold.length, file: `google-ads-conversions-${range}.csv`, target: 'google-ads-conversions.csv' };
  } else if (form.kind === undefined || form.kind === 'leads') {
    // The leads list's own filter (engine/console/leadFilter.ts), so its export is exactly its rows.
    const f = leadListQuery(form, brands, who.user.role);
    if (f.problems.length) throw new ApiError(400, f.problems.join(' '));
    const leads = await leadsCsv(db, f.filter, await operatorMoney(db, who.user.email));
    if (!leads) {
      // A browser's form goes back to the page it was on, which says so: the leads list (its form
      // says `back=leads`) keeps its filter; the Exports page keeps the range typed.
      if (browserFormPost(req.headers)) return form.back === 'leads' ? see(leadListHref(f.form, { export: 'too_many' })) : backToExports(form, true);
      throw new ApiError(413, `More than ${EXPORT_MAX} leads in this range: export a shorter range or one brand`);
    }
    const leadRange = [f.form.from || 'start', f.form.to || 'today', ...(['brand', 'status', 'state'] as const).map((k) => f.form[k]).filter(Boolean)].join(
      '-',
    );
    out = { ...leads, file: `leads-${leadRange}.csv`, target: 'leads.csv' };
    await audit(db, {
      actor: who.user.email,
      action: 'export',
      target: out.target,
      detail: { from: f.form.from, to: f.form.to, brand: f.form.brand, ...nonEmpty(f.form), rows: out.rows },
    });
    return csvAnswer(out);
  } else throw new ApiError(400, 'kind must be leads or google-ads');
  await audit(db, { actor: who.user.email, action: 'export', target: out.target, detail: { from: q.from, to: q.to, brand: q.brand, rows: out.rows } });
  return csvAnswer(out);
}

/** The Exports page's forms: which one, and the range and brand they post. */
export type ExportForm = { kind: 'leads' | 'google-ads'; from: string; to: string; brand: string };

const exportFormOf = (q: Record<string, string | undefined>): ExportForm => ({
  kind: q.kind === 'google-ads' ? 'google-ads' : 'leads',
  // as typed, but never more than a day needs: they come back in a link
  from: (q.from ?? '').slice(0, 20),
  to: (q.to ?? '').slice(0, 20),
  brand: (q.brand ?? '').slice(0, 60),
});

/**
 * What is wrong with the range or brand of an Exports form (the same checks the export makes),
 * or '' — computed again by the page from its link, so the page shows only its own words.
 */
export function exportRangeProblem(q: Record<string, string | undefined>, brands: ReadonlySet<string>, role: Role): string {
  const f = exportFormOf(q);
  if (f.kind === 'google-ads') return overviewQuery({ from: f.from, to: f.to, brand: f.brand }, brands).problem.replace(/; showing the last 7 days\./, '.');
  return leadListQuery({ from: f.from, to: f.to, brand: f.brand }, brands, role).problems.join(' ');
}

/**
 * Back to the Exports page, naming the form and what it posted; the page (pages/_console/exports.tsx)
 * shows the problem — the range's, or (`tooMany`: too=many) that it holds more than EXPORT_MAX rows.
 */
export function backToExports(q: Record<string, string | undefined>, tooMany = false): ApiAnswer {
  const f = exportFormOf(q);
  return see(
    `/exports?${new URLSearchParams({ refused: f.kind, from: f.from, to: f.to, ...(f.brand ? { brand: f.brand } : {}), ...(tooMany ? { too: 'many' } : {}) })}`,
  );
}

/** What a page says when an export is over EXPORT_MAX rows: the limit, and how to ask for less. */
export const EXPORT_TOO_MANY = {
  leads: `More than ${EXPORT_MAX.toLocaleString('en-US')} leads are in this range, so nothing was exported. Narrow the dates or choose one brand, and export the range in parts.`,
  'google-ads': `More than ${EXPORT_MAX.toLocaleString('en-US')} sold leads with a Google click id are in this range, so nothing was exported. Narrow the dates or choose one brand, and export the range in parts.`,
  list: `More than ${EXPORT_MAX.toLocaleString('en-US')} leads match these filters, so nothing was exported. Narrow the dates or add a filter (brand, status, state…) and download again.`,
} as const;

const nonEmpty = (o: Record<string, string>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v));

function csvAnswer(out: { text: string; file: string }): ApiAnswer {
  return {
    status: 200,
    bytes: Buffer.from(out.text, 'utf8'),
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${out.file}"`,
    },
  };
}
