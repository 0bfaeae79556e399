/**
 * Lead key rotation (engine/keys/sealing.ts): put the new key first in LEADS_ENCRYPTION_KEYS and
 * keep the old ones after it, restart, run `npm run keys -- rotate` (resealAll: every sealed lead
 * field and form trace not sealed with the current key is opened and sealed again with it — plain
 * form traces from before sealing too), then drop the old keys. Pending deliveries keep working
 * throughout: the old keys open what they sealed until it is re-sealed.
 *
 * checkNewestSealed runs at start: the newest sealed lead and form trace must open with the
 * configured keys, or the start says which key is missing, before 25 retries of every pending
 * delivery fail one by one.
 */
import type { Store } from '../store/db';
import { isSealed, openBytes, openText, sealBytes, sealedKeyId, sealText, type LeadKeyring } from '../keys/sealing';
import { openCertificateJson } from '../store/certificates';
import { certificateKeyOf } from './certificate/keys';

/** Why the configured keys cannot open the newest sealed rows, or undefined when they can (or nothing is stored). */
export async function checkNewestSealed(db: Store, ring: LeadKeyring): Promise<string | undefined> {
  const lead = await db
    .selectFrom('leads')
    .select(['id', 'created_at', 'sealed'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const trace = await db
    .selectFrom('form_traces')
    .select(['id', 'created_at', 'trace'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const rows = [
    ...(lead ? [{ what: 'lead', id: lead.id, at: lead.created_at, sealed: lead.sealed }] : []),
    ...(trace && isSealed(trace.trace) ? [{ what: 'form trace', id: trace.id, at: trace.created_at, sealed: trace.trace }] : []),
  ];
  for (const row of rows) {
    try {
      openText(row.sealed, ring);
    } catch (err) {
      const kid = sealedKeyId(row.sealed);
      return (
        `The newest stored ${row.what} (${row.id}, ${row.at}) cannot be opened with the configured lead keys (${[...ring.byId.keys()].join(', ')}): ` +
        `${(err as Error).message}. ${kid ? `It was sealed with key ${kid}: ` : ''}list that key after the current one in LEADS_ENCRYPTION_KEYS, then run npm run keys -- rotate.`
      );
    }
  }
  return undefined;
}

export interface ResealReport {
  leads: number;
  formTraces: number;
  /** consent certificates (their signatures stay as they were: only the sealing at rest changes) */
  certificates: number;
  /** rows no configured key opens: left as they are */
  unopened: string[];
}

/** Re-seals with the current key every value sealed with another key (or, for form traces, not sealed at all). */
export async function resealAll(db: Store, ring: LeadKeyring, batch = 200): Promise<ResealReport> {
  const report: ResealReport = { leads: 0, formTraces: 0, certificates: 0, unopened: [] };
  const current = `v2.${ring.current.id}.`;
  const reseal = (stored: string, sealed: boolean): string => sealText(sealed ? openText(stored, ring) : stored, ring);
  for (const table of ['leads', 'form_traces', 'lead_certificates'] as const) {
    const column = table === 'form_traces' ? 'trace' : 'sealed';
    let after = '';
    for (;;) {
      const rows = (await db
        .selectFrom(table)
        .select(['id', column])
        .where('id', '>', after)
        .where(column, 'not like', `${current}%`)
        .orderBy('id')
        .limit(batch)
        .execute()) as { id: string; sealed?: string; trace?: string }[];
      if (!rows.length) break;
      after = rows[rows.length - 1]!.id;
      for (const row of rows) {
        const stored = (row.sealed ?? row.trace)!;
        const sealed = isSealed(stored);
        if (table !== 'form_traces' && !sealed) continue;
        let next: string;
        try {
          // a certificate is sealed bytes (deflated JSON), not text
          next = table === 'lead_certificates' ? sealBytes(openBytes(stored, ring), ring) : reseal(stored, sealed);
        } catch (err) {
          report.unopened.push(`${row.id}: ${(err as Error).message}`);
          continue;
        }
        // only if nobody changed the row meanwhile
        const r =
          table === 'form_traces'
            ? await db.updateTable('form_traces').set({ trace: next }).where('id', '=', row.id).where('trace', '=', stored).executeTakeFirst()
            : await db.updateTable(table).set({ sealed: next }).where('id', '=', row.id).where('sealed', '=', stored).executeTakeFirst();
        if (Number(r.numUpdatedRows) > 0) report[table === 'leads' ? 'leads' : table === 'form_traces' ? 'formTraces' : 'certificates'] += 1;
      }
    }
  }
  return report;
}

/** Kept certificates signed with an older lead key's certificate key: they verify only while that key stays listed. */
export interface OlderSignatures {
  /** the lead key's id (as in `v2.<id>.…`) */
  leadKeyId: string;
  certificates: number;
  /** the latest expires_at among them: until when the key must stay listed */
  keptUntil: string;
}

/**
 * The certificates still kept that an older lead key signed (its certificate key, ./certificate/keys.ts),
 * by key. Dropping such a key from LEADS_ENCRYPTION_KEYS unpublishes its certificate key, and every one
 * of them then answers `valid: false` to the buyers who rely on it. Certificates no key opens are skipped
 * (resealAll reports them).
 */
export async function certificatesSignedByOlderKeys(db: Store, ring: LeadKeyring, now: Date, batch = 500): Promise<OlderSignatures[]> {
  const leadKeyOfKid = new Map([...ring.byId].map(([id, key]) => [certificateKeyOf(key).kid, id]));
  const currentKid = certificateKeyOf(ring.current.key).kid;
  const found = new Map<string, OlderSignatures>();
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom('lead_certificates')
      .select(['id', 'sealed', 'expires_at'])
      .where('id', '>', after)
      .where('expires_at', '>', now.toISOString())
      .orderBy('id')
      .limit(batch)
      .execute();
    if (!rows.length) break;
    after = rows[rows.length - 1]!.id;
    for (const row of rows) {
      let kid: string;
      try {
        kid = (JSON.parse(openCertificateJson(row.sealed)) as { signature: { kid: string } }).signature.kid;
      } catch {
        continue;
      }
      if (kid === currentKid) continue;
      const leadKeyId = leadKeyOfKid.get(kid) ?? `(certificate key ${kid}, no longer listed)`;
      const seen = found.get(leadKeyId) ?? { leadKeyId, certificates: 0, keptUntil: row.expires_at };
      seen.certificates += 1;
      if (row.expires_at > seen.keptUntil) seen.keptUntil = row.expires_at;
      found.set(leadKeyId, seen);
    }
  }
  return [...found.values()];
}

/** What `npm run keys -- rotate` says may be done with the older keys once everything is re-sealed. */
export function olderKeysAdvice(older: readonly OlderSignatures[]): string {
  if (!older.length) return 'keys: nothing is sealed with another key now; the keys after the first in LEADS_ENCRYPTION_KEYS can be removed.';
  const lines = older.map((o) => `  lead key ${o.leadKeyId}: ${o.certificates} consent certificate(s) signed with it, kept until ${o.keptUntil.slice(0, 10)}`);
  return [
    'keys: nothing is sealed with another key now, but consent certificates issued before the rotation verify only while the key that signed them is listed:',
    ...lines,
    'keys: keep those keys after the first in LEADS_ENCRYPTION_KEYS until then; removed, buyers verifying those certificates get "valid": false.',
  ].join('\n');
}
