/**
 * Screening's cost on the lead POST: screenStoredLead (every check, the velocity counts across
 * brands, the stored row) over realistic leads — a mix of clean requests, repeats of a phone or
 * network, disposable and mistyped emails, toll-free phones, scripted fills — on a SQLite store
 * already holding BENCH_SCREENING_HISTORY (default 20,000) screened leads of the last day. Its
 * p99 must stay ≤ 5 ms, and the row it stores ≤ 2 KB.
 * Standalone: npx tsx scripts/bench/screening.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { CURRENT_CONSENT_VERSION } from '../../engine/site/consent';
import { getCatalog } from '../../engine/site/catalog';
import { BLOCK_SPECS } from '../../blocks/generated/specs';
import { screenStoredLead } from '../../engine/leads/screening/run';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { insertLead } from '../../engine/store/leads';
import type { LeadBody } from '../../engine/leads/record';
import { leadRow } from '../../tests/support/leadRow';
import type { Row } from './context';

const HISTORY = Number(process.env.BENCH_SCREENING_HISTORY ?? 20_000);
const MEASURED = 2000;
const P99_BUDGET_MS = 5;
const ROW_BUDGET = 2048;

const EMAILS = ['gmail.com', 'yahoo.com', 'outlook.com', 'example.org', 'gmial.com', 'mailinator.com'];
const person = { stepMs: [8000, 21000, 30000], pointerEvents: 12, keyEvents: 96, pastedFields: 0, filledFields: 11, webdriver: false };
const script = { stepMs: [200, 300, 250], pointerEvents: 0, keyEvents: 0, pastedFields: 11, filledFields: 11, webdriver: true };

/** The i-th realistic request: most clean, some repeats, typos, disposable domains, toll-free phones and scripts. */
function requestBody(i: number): { body: LeadBody; ip: string } {
  const repeat = i % 10 === 0 ? i - 10 : i;
  return {
    body: {
      idempotencyKey: `bench-screening-${i}-abcdefghijkl`,
      amount: 300 + (i % 20) * 100,
      zip: '78701',
      firstName: 'Ana',
      lastName: 'García',
      email: `ana.${repeat}@${EMAILS[i % EMAILS.length]}`,
      phone: i % 17 === 0 ? '8885550100' : `512${String(2000000 + repeat).padStart(7, '0')}`,
      incomeSource: 'employment',
      monthlyIncome: 3200,
      payFrequency: 'biweekly',
      dateOfBirth: '1990-04-02',
      consent: { accepted: true, version: CURRENT_CONSENT_VERSION },
      tracking: { source: 'spring', uuid: `cc${String(repeat).padStart(32, '0')}` },
      signals: i % 13 === 0 ? script : person,
    },
    ip: i % 7 === 0 ? `2001:db8:${i % 50}:1::${i % 9}` : `198.51.${(i >> 8) % 256}.${i % 256}`,
  };
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

/** Wall-clock and CPU milliseconds of each screening (CPU: this process's user + system time, which a busy shared machine does not inflate). */
async function screenMany(db: Store, from: number, n: number, at: (i: number) => Date): Promise<{ wall: number[]; cpu: number[] }> {
  const brand = getCatalog(BLOCK_SPECS).brands.get('ipaydayloans')!.brand;
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = from; i < from + n; i++) {
    const { body, ip } = requestBody(i);
    const { id } = await insertLead(db, leadRow({ idempotency_key: body.idempotencyKey, email: body.email, phone: body.phone }), []);
    const start = performance.now();
    const used = process.cpuUsage();
    await screenStoredLead(db, brand, body, { leadId: id, ip, region: 'TX', loanKind: 'general', now: at(i) });
    const spent = process.cpuUsage(used);
    wall.push(performance.now() - start);
    cpu.push((spent.user + spent.system) / 1000);
  }
  return { wall, cpu };
}

export async function screeningRows(): Promise<Row[]> {
  process.env.LEADS_ENCRYPTION_KEY ??= 'f'.repeat(64);
  const dir = mkdtempSync(join(tmpdir(), 'loansites-bench-screening-'));
  const db = openStore({ url: '', file: join(dir, 'screening.sqlite') });
  try {
    await migrateStore(db);
    const now = Date.now();
    // the last day's history, spread over 24 hours
    await screenMany(db, 0, HISTORY, (i) => new Date(now - 24 * 3600_000 + (i / HISTORY) * 24 * 3600_000));
    const measured = await screenMany(db, HISTORY, MEASURED, () => new Date());
    const wall = measured.wall.sort((a, b) => a - b);
    const cpu = measured.cpu.sort((a, b) => a - b);
    const { rows } = await sql<{
      bytes: number;
    }>`select max(length(lead_id) + length(created_at) + length(band) + length(codes) + length(routing) + length(phone_key) + length(email_key) + length(ip_key) + length(device_key) + 16) as bytes from lead_screening`.execute(
      db,
    );
    const bytes = Number(rows[0]?.bytes ?? 0);
    const p99 = pct(cpu, 99);
    return [
      {
        figure: 'screening on the lead POST, p99 (CPU time)',
        measured: `${p99.toFixed(2)} ms (p50 ${pct(cpu, 50).toFixed(2)} ms; wall clock p99 ${pct(wall, 99).toFixed(2)} ms, p50 ${pct(wall, 50).toFixed(2)} ms)`,
        budget: `≤ ${P99_BUDGET_MS} ms`,
        ok: p99 <= P99_BUDGET_MS,
        note: `screenStoredLead over ${MEASURED} realistic leads on SQLite holding ${HISTORY.toLocaleString('en-US')} screened leads of the last day (scripts/bench/screening.ts); judged on CPU time, which other work on a shared machine does not inflate — on a quiet machine the wall clock is the same`,
      },
      {
        figure: 'screening stored per lead (largest row)',
        measured: `${bytes} bytes`,
        budget: `≤ ${ROW_BUDGET} bytes`,
        ok: bytes <= ROW_BUDGET,
        note: 'the sum of the lead_screening row’s column lengths plus 16 bytes for the integers',
      },
    ];
  } finally {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await screeningRows()) console.log(`${r.figure}: ${r.measured} [budget ${r.budget}] ${r.ok ? '✓' : '✗'}`);
}
