/**
 * Lead quality in the console: a lead's screening (score, band, reason codes, routing), and the
 * breakdown of score bands and reason codes by source, campaign and sub-id over a date range —
 * which traffic sends bad leads. No personal data: codes and counts only.
 */
import type { Store } from '../store/db';
import { screeningOf } from '../store/screening';

export const leadScreening = async (db: Store, leadId: string) => {
  const row = await screeningOf(db, leadId);
  return row ? { score: row.score, band: row.band, codes: row.codes.split(',').filter(Boolean), routing: row.routing } : null;
};

export interface QualityRow {
  source: string;
  campaign: string;
  subId: string;
  leads: number;
  high: number;
  medium: number;
  low: number;
  averageScore: number;
  /** reason codes by how many of the group's leads have each, most first */
  codes: [code: string, leads: number][];
}

/** At most this many leads are read for one breakdown (a range's leads, newest first). */
export const QUALITY_MAX_LEADS = 50_000;

export async function qualityBreakdown(db: Store, range: { from: string; to: string; brand?: string }): Promise<QualityRow[]> {
  let q = db
    .selectFrom('lead_screening as s')
    .innerJoin('leads as l', 'l.id', 's.lead_id')
    // the campaign from the lead's copy of its visit's (engine/store/leadVisitDims.ts), as the overview reads it
    .select(['l.source', 'l.source2', 'l.visit_campaign as campaign', 's.score', 's.band', 's.codes'])
    .where('s.created_at', '>=', range.from)
    .where('s.created_at', '<', range.to);
  if (range.brand) q = q.where('l.brand', '=', range.brand);
  const rows = await q.orderBy('s.created_at', 'desc').limit(QUALITY_MAX_LEADS).execute();
  const groups = new Map<string, QualityRow & { total: number; counts: Map<string, number> }>();
  for (const r of rows) {
    const key = JSON.stringify([r.source, r.campaign ?? '', r.source2]);
    let g = groups.get(key);
    if (!g) {
      g = {
        source: r.source,
        campaign: r.campaign ?? '',
        subId: r.source2,
        leads: 0,
        high: 0,
        medium: 0,
        low: 0,
        averageScore: 0,
        codes: [],
        total: 0,
        counts: new Map(),
      };
      groups.set(key, g);
    }
    g.leads += 1;
    g.total += r.score;
    if (r.band === 'high' || r.band === 'medium' || r.band === 'low') g[r.band] += 1;
    for (const c of r.codes.split(',').filter(Boolean)) g.counts.set(c, (g.counts.get(c) ?? 0) + 1);
  }
  return [...groups.values()]
    .map(({ total, counts, ...g }) => ({
      ...g,
      averageScore: Math.round(total / g.leads),
      codes: [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])),
    }))
    .sort((a, b) => a.averageScore - b.averageScore || b.leads - a.leads);
}

export interface HeldLead {
  id: string;
  brand: string;
  createdAt: string;
  score: number;
  codes: string[];
}

/** The leads screening holds for review (oldest first: the longest waiting), at most 200: each row links to its lead's page, where it is released or rejected. */
export async function heldLeads(db: Store, brand?: string): Promise<HeldLead[]> {
  let q = db
    .selectFrom('lead_screening as s')
    .innerJoin('leads as l', 'l.id', 's.lead_id')
    .select(['l.id', 'l.brand', 's.created_at', 's.score', 's.codes'])
    .where('s.routing', '=', 'hold');
  if (brand) q = q.where('l.brand', '=', brand);
  const rows = await q.orderBy('s.created_at').limit(200).execute();
  return rows.map((r) => ({ id: r.id, brand: r.brand, createdAt: r.created_at, score: r.score, codes: r.codes.split(',').filter(Boolean) }));
}
