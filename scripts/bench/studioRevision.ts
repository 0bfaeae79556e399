/**
 * A brand served from a published studio revision costs what a brand served from its file costs:
 * on a server of its own (a fresh store, REVISIONS_POLL_MS 200), the server's CPU per request of a
 * cached hit and per cold render, for the measured brand (ipaydayloans) and a control brand
 * (cocoloan, a file brand throughout), first with every brand from its file, then after the
 * measured brand's document is published as a revision (its footer text changed). The figure is
 * the measured brand's cost relative to the control's, after ÷ before, so the machine's load in
 * either phase cancels out; budget: within 5 %. Also: publish → the new text served (one instance;
 * the cluster's figure is the e2e's), and that the control brand's page stayed a cache hit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { Brand } from '../../schemas/brand.types';
import { openStore } from '../../engine/store/db';
import { brandRevision, publishBrand, saveBrandDraft } from '../../engine/store/brandRevisions';
import { get, startServer, stopServer, type BenchContext, type Row } from './context';
import { render, sitemapPaths, spread } from './coldRender';
import { treeCpuSeconds } from './nextFloor';

const MEASURED = 'ipaydayloans';
const CONTROL = 'cocoloan';
const COLD_PAGES = Number(process.env.BENCH_STUDIO_PAGES ?? 150);
const HIT_SECONDS = Number(process.env.BENCH_STUDIO_SECONDS ?? 5);

interface Phase {
  hitCpuUs: Record<string, number>;
  coldCpuMs: Record<string, number>;
}

/** CPU per request of a cached hit (microseconds), under 20 connections for HIT_SECONDS. */
async function hitCpu(port: number, host: string, path: string, pid: number): Promise<number> {
  for (let i = 0; i < 3; i++) await get(port, host, path);
  const before = treeCpuSeconds(pid);
  const result = await autocannon({ url: `http://127.0.0.1:${port}${path}`, headers: { host }, connections: 20, duration: HIT_SECONDS, pipelining: 1 });
  if (result.non2xx || result.errors) throw new Error(`${host}${path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return ((treeCpuSeconds(pid) - before) * 1e6) / result.requests.total;
}

export async function studioRevisionRows(ctx: BenchContext): Promise<Row[]> {
  const port = ctx.port + 7;
  const dir = mkdtempSync(join(tmpdir(), 'loansites-bench-studio-'));
  const dbFile = join(dir, 'studio.sqlite');
  const server = await startServer(ctx.root, port, { LOANSITES_DB_FILE: dbFile, PAGE_CACHE_STATS: '1', REVISIONS_POLL_MS: '200' });
  const db = openStore({ url: '', file: dbFile });
  try {
    const hosts: Record<string, string> = { [MEASURED]: `${MEASURED}.localhost:${port}`, [CONTROL]: `${CONTROL}.localhost:${port}` };
    const fresh: Record<string, string[]> = {};
    for (const id of [MEASURED, CONTROL]) fresh[id] = spread(await sitemapPaths({ port, host: hosts[id]! }), COLD_PAGES * 3);
    // warm the render path (a just-started server compiles as it renders)
    for (const id of [MEASURED, CONTROL]) await render({ port, host: hosts[id]! }, fresh[id]!.slice(0, COLD_PAGES));
    const hitPath = '/';
    const phase = async (slice: number): Promise<Phase> => {
      const out: Phase = { hitCpuUs: {}, coldCpuMs: {} };
      for (const id of [MEASURED, CONTROL]) {
        out.coldCpuMs[id] = (await render({ port, host: hosts[id]! }, fresh[id]!.slice(COLD_PAGES * slice, COLD_PAGES * (slice + 1)), server.pid!)).cpuMs;
        out.hitCpuUs[id] = await hitCpu(port, hosts[id]!, hitPath, server.pid!);
      }
      return out;
    };
    const before = await phase(1);

    // publish the measured brand's own document, one sentence changed
    const file = (await brandRevision(db, MEASURED, 0))!;
    const doc = structuredClone(file.document) as Brand;
    const text = `Published in the studio for the bench ${Date.now()}.`;
    doc.footer.about = text;
    const draft = await saveBrandDraft(db, { id: MEASURED, document: doc, expectedVersion: 0, author: 'bench' });
    const t0 = performance.now();
    await publishBrand(db, { id: MEASURED, version: draft.version, author: 'bench' });
    let seenMs = NaN;
    for (let i = 0; i < 200; i++) {
      if ((await get(port, hosts[MEASURED]!, hitPath)).body.includes(text)) {
        seenMs = performance.now() - t0;
        break;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    const controlHit = String((await get(port, hosts[CONTROL]!, hitPath)).headers['x-nextjs-cache'] ?? '');
    const after = await phase(2);

    const rel = (p: Phase, k: 'hitCpuUs' | 'coldCpuMs') => p[k][MEASURED]! / p[k][CONTROL]!;
    const hitRatio = rel(after, 'hitCpuUs') / rel(before, 'hitCpuUs');
    const coldRatio = rel(after, 'coldCpuMs') / rel(before, 'coldCpuMs');
    const within = (r: number) => Math.abs(r - 1) <= 0.05;
    const us = (p: Phase) => `${p.hitCpuUs[MEASURED]!.toFixed(0)}/${p.hitCpuUs[CONTROL]!.toFixed(0)} µs`;
    const ms = (p: Phase) => `${p.coldCpuMs[MEASURED]!.toFixed(2)}/${p.coldCpuMs[CONTROL]!.toFixed(2)} ms`;
    return [
      {
        figure: 'studio revision ÷ file brand: cached hit CPU',
        measured: `${hitRatio.toFixed(3)}× (measured/control: file ${us(before)}, revision ${us(after)})`,
        budget: '0.95–1.05×',
        ok: within(hitRatio),
        note: `${MEASURED} from its file, then from a published revision, against ${CONTROL} (a file brand) in the same phase; server CPU per request of ${hitPath}, 20 connections for ${HIT_SECONDS} s each`,
      },
      {
        figure: 'studio revision ÷ file brand: cold render CPU',
        measured: `${coldRatio.toFixed(3)}× (measured/control: file ${ms(before)}, revision ${ms(after)})`,
        budget: '0.95–1.05×',
        ok: within(coldRatio),
        note: `${COLD_PAGES} fresh sitemap pages of each brand per phase, 8 at a time; server CPU per page`,
      },
      {
        figure: 'studio publish → new text served (one instance)',
        measured: `${seenMs.toFixed(0)} ms; the other brand's page after it: ${controlHit || 'no cache header'}`,
        budget: '≤ 5000 ms, other brand HIT',
        ok: seenMs <= 5000 && controlHit === 'HIT',
        note: 'the revision written to the store directly (as a publish on another instance would be), found by the poll (REVISIONS_POLL_MS=200 here; 2,000 by default)',
      },
    ];
  } finally {
    stopServer(server);
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}
