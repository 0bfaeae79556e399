/**
 * A cached hit of a page under an experiment against the same page without one, in the same
 * server and the same rounds: the payday brand's /payday-loans (the demo experiment: a visitor
 * with the cookie, in the control and in the other variant, and a visitor without it, assigned
 * and sent Set-Cookie on every request) and another brand's /payday-loans (the same layout, no
 * experiment), asked with the same Cookie header, so the difference is the experiment's own work.
 * That brand is usbadcreditloans: its page is the same bytes within 0.4 % (31.3 KB against
 * 31.4-31.5 KB; cocoloan's, compared before, is 27.8 KB, which put ~12 % more bytes to send on
 * the experiment's side); the note shows each case's bytes per response as measured.
 * Each is a replayed hit (engine/cache/cachedPageReplay.mjs); the figure is the
 * server's CPU per request at the same offered rate (CPU_RATE), median of the rounds, the cases
 * in a different order each round. Budget: every visitor, with the cookie or assigned now, within
 * 10 % of the page without an experiment.
 */
import { availableParallelism } from 'node:os';
import { loadAverage, loadWithCpu } from './bareServer';
import { median, type BenchContext, type Row } from './context';
import { CPU_RATE } from './throughput';

const EXPERIMENT = 'payday-hero-headline';
const PATH = '/payday-loans';

export async function experimentHitRows(ctx: BenchContext): Promise<Row[]> {
  const port = ctx.host.replace(/^.*:/, '');
  const cookie = (variant: string) => ({ cookie: `lsx=0123456789abcdef|${EXPERIMENT}:${variant}` });
  const cases = [
    // the same request (the same Cookie header to parse) to a page no experiment covers
    {
      name: 'the same layout without an experiment (usbadcreditloans /payday-loans, the same Cookie header)',
      host: `usbadcreditloans.localhost:${port}`,
      headers: cookie('control'),
    },
    { name: 'under the experiment, a visitor with the cookie (control)', host: ctx.host, headers: cookie('control') },
    { name: 'under the experiment, a visitor with the cookie (cash-before-payday)', host: ctx.host, headers: cookie('cash-before-payday') },
    { name: 'under the experiment, a visitor without the cookie (assigned, Set-Cookie)', host: ctx.host, headers: {} },
  ];
  const seconds = Math.ceil(ctx.seconds / 2);
  // each page rendered, then answered by Next from its cache (recorded), then replayed
  for (const c of cases) await loadWithCpu(ctx.pid(), ctx.port, c.host, PATH, 2, undefined, c.headers);
  const cpu: number[][] = cases.map(() => []);
  const bytes: number[] = cases.map(() => 0);
  const loads: number[] = [];
  for (let r = 0; r < ctx.rounds; r++) {
    const order = cases.map((_, i) => (i + r) % cases.length);
    for (const i of order) {
      const round = await loadWithCpu(ctx.pid(), ctx.port, cases[i]!.host, PATH, seconds, CPU_RATE, cases[i]!.headers);
      cpu[i]!.push(round.cpuUs);
      bytes[i] = round.bytesPerResponse;
    }
    loads.push(loadAverage());
  }
  const base = median(cpu[0]!);
  const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join('/');
  return cases.map((c, i) => {
    const us = median(cpu[i]!);
    const ratio = us / base;
    const underExperiment = i > 0;
    return {
      figure: `cached hit CPU per request: ${c.name}`,
      measured: i === 0 ? `${us.toFixed(0)} µs` : `${us.toFixed(0)} µs, ${ratio.toFixed(2)}× the page without`,
      ...(underExperiment ? { budget: '≤ 1.10×', ok: ratio <= 1.1 } : {}),
      ...(i === 0
        ? {
            note: `${ctx.rounds} rounds of ${seconds} s at ${CPU_RATE} rps offered (20 connections), the cases in turn (a different one first each round); the server's user + system CPU ÷ requests; rounds ${cpu.map(list).join(' | ')} µs; bytes per response (head and body) ${bytes.map((b) => b.toFixed(0)).join(' | ')}; load average ${loads.map((l) => l.toFixed(1)).join('/')} on ${availableParallelism()} cores`,
          }
        : {}),
    };
  });
}
