/**
 * POST /api/console/export: the leads of a date range (and brand) as a CSV download, for an
 * admin only, with the session's CSRF token; every export is audited with its range and row count.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getCatalog } from '../catalog';
import { ApiError, clientIp, handleApi } from '../http/api';
import type { Store } from '../store/db';
import { audit } from '../store/console';
import { EXPORT_MAX, leadsCsv } from './adminQueries';
import { requireUser } from './api';
import { csrfValid } from './csrf';
import { readConsoleForm } from './forms';
import { overviewQuery } from './range';

export function exportRoute(db: Store, req: IncomingMessage, res: ServerResponse): Promise<void> {
  return handleApi(req, res, async () => {
    const form = await readConsoleForm(req);
    const who = await requireUser(db, { method: 'POST', headers: req.headers as Record<string, string | undefined>, ip: clientIp(req) }, 'exports.run');
    if ('refused' in who) throw new ApiError(who.refused!.status, (who.refused!.body as { error: string }).error);
    if (!csrfValid(who.token, form.csrf)) throw new ApiError(403, 'The form is out of date; reload the page and try again');
    const q = overviewQuery({ from: form.from ?? '', to: form.to ?? '', brand: form.brand ?? '' }, new Set(getCatalog().brands.keys()));
    if (q.problem) throw new ApiError(400, q.problem.replace(/; showing the last 7 days\./, '.'));
    const out = await leadsCsv(db, { from: q.filter.from, to: q.filter.to, ...(q.brand ? { brand: q.brand } : {}) });
    if (!out) throw new ApiError(413, `More than ${EXPORT_MAX} leads in this range: export a shorter range or one brand`);
    await audit(db, { actor: who.user.email, action: 'export', target: 'leads.csv', detail: { from: q.from, to: q.to, brand: q.brand, rows: out.rows } });
    return {
      status: 200,
      bytes: Buffer.from(out.text, 'utf8'),
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="leads-${q.from}-${q.to}${q.brand ? `-${q.brand}` : ''}.csv"`,
      },
    };
  });
}
