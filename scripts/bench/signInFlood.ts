/**
 * A sign-in flood against the console: FLOOD_CONNECTIONS clients post sign-ins with random emails,
 * each from a random 127.x.y.z address (a new /24 nearly every time, so no network lock slows
 * them), for FLOOD_SECONDS; meanwhile a real operator signs in from 127.0.99.9 every few seconds.
 * Measured: the server's memory (RSS of its process tree) before and at the end of the flood, and
 * its peak; the operator's sign-in time (budget: every one answered, signed in, within 2 s),
 * beside the same sign-in without a flood (one scrypt hash: the floor on this machine); and how
 * many flood sign-ins were answered. Every request goes to this machine's loopback only, and
 * the flood stops after FLOOD_SECONDS.
 */
import { request } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { hashPassword } from '../../engine/console/passwords';
import { addUser, removeUser } from '../../engine/store/console';
import { migrateStore, openStore } from '../../engine/store/db';
import { median, type BenchContext, type Row } from './context';
import { treeRssBytes } from './nextFloor';

const FLOOD_CONNECTIONS = 8;
const FLOOD_SECONDS = Number(process.env.BENCH_SIGNIN_FLOOD_SECONDS ?? 30);
const OPERATOR_EVERY_MS = 3_000;
const OPERATOR_FROM = '127.0.99.9';
const MEMORY_BUDGET = 32 * 1024 * 1024;
const LATENCY_BUDGET_MS = 2_000;
const OPERATOR = 'bench-operator@example.com';
const PASSWORD = 'bench operator passphrase 1';
const MiB = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MiB`;

/** One sign-in form post from `from`: its status and where it redirects. */
function signIn(port: number, email: string, password: string, from: string): Promise<{ status: number; location: string }> {
  const body = new URLSearchParams({ email, password }).toString();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/console/login',
        agent: false,
        localAddress: from,
        headers: { host: `console.localhost:${port}`, 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, location: String(res.headers.location ?? '') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const byte = () => Math.floor(Math.random() * 256);
const randomLoopback = () => `127.${byte()}.${byte()}.${1 + Math.floor(Math.random() * 254)}`;
const randomEmail = () => `${Math.random().toString(36).slice(2)}@${Math.random().toString(36).slice(2, 8)}.example`;

export async function signInFloodRows(ctx: BenchContext): Promise<Row[]> {
  const db = openStore({ url: '', file: join(ctx.root, '.bench/bench.sqlite') });
  try {
    await migrateStore(db);
    await removeUser(db, OPERATOR);
    await addUser(db, { email: OPERATOR, role: 'admin', passwordHash: await hashPassword(PASSWORD) });
  } finally {
    await db.destroy();
  }
  // warm: the route loaded, a hash timed, an unknown email answered once
  await signIn(ctx.port, OPERATOR, PASSWORD, OPERATOR_FROM);
  await signIn(ctx.port, randomEmail(), 'warm-up guess', randomLoopback());
  // the operator's sign-in without a flood: what a hash costs on this machine now
  const aloneTimes: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    await signIn(ctx.port, OPERATOR, PASSWORD, OPERATOR_FROM);
    aloneTimes.push(performance.now() - t);
  }
  const before = treeRssBytes(ctx.pid());
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, treeRssBytes(ctx.pid()))), 250);

  const floodTimes: number[] = [];
  const floodStatuses = new Map<number, number>();
  const endAt = Date.now() + FLOOD_SECONDS * 1000;
  const flooder = async () => {
    while (Date.now() < endAt) {
      const t = performance.now();
      const r = await signIn(ctx.port, randomEmail(), 'wrong-guess', randomLoopback()).catch(() => ({ status: 0, location: '' }));
      floodTimes.push(performance.now() - t);
      floodStatuses.set(r.status, (floodStatuses.get(r.status) ?? 0) + 1);
    }
  };
  const operatorTimes: number[] = [];
  let operatorFailed = 0;
  const operator = async () => {
    await new Promise((r) => setTimeout(r, OPERATOR_EVERY_MS / 2));
    while (Date.now() < endAt - OPERATOR_EVERY_MS / 2) {
      const t = performance.now();
      const r = await signIn(ctx.port, OPERATOR, PASSWORD, OPERATOR_FROM);
      operatorTimes.push(performance.now() - t);
      if (r.location !== '/') operatorFailed++;
      await new Promise((res) => setTimeout(res, OPERATOR_EVERY_MS));
    }
  };
  await Promise.all([...Array.from({ length: FLOOD_CONNECTIONS }, flooder), operator()]);
  clearInterval(sampler);
  const after = treeRssBytes(ctx.pid());
  peak = Math.max(peak, after);

  const growth = after - before;
  const slowest = Math.max(...operatorTimes);
  const statuses = [...floodStatuses].map(([s, n]) => `${n}× ${s === 303 ? '303 (wrong)' : s || 'error'}`).join(', ');
  return [
    {
      figure: `console sign-in flood (${FLOOD_CONNECTIONS} connections, random emails from random /24s, ${FLOOD_SECONDS} s): server memory growth`,
      measured: `${MiB(before)} → ${MiB(after)} (${growth >= 0 ? '+' : ''}${MiB(growth)}; peak ${MiB(peak)})`,
      budget: '< +32 MiB',
      ok: growth < MEMORY_BUDGET,
      note: `scripts/bench/signInFlood.ts: ${floodTimes.length} flood sign-ins answered (${(floodTimes.length / FLOOD_SECONDS).toFixed(1)}/s, p50 ${(median(floodTimes) / 1000).toFixed(2)} s; ${statuses}); RSS of the server's process tree from /proc, sampled every 250 ms; the operator signed in ${operatorTimes.length} times from ${OPERATOR_FROM}, every ${OPERATOR_EVERY_MS / 1000} s; load average ${loadavg()[0]!.toFixed(1)}`,
    },
    {
      figure: 'console sign-in flood: a real operator’s sign-in, slowest of those during the flood',
      measured: `${(slowest / 1000).toFixed(2)} s (median ${(median(operatorTimes) / 1000).toFixed(2)} s${operatorFailed ? `; ${operatorFailed} not signed in` : ''}; without the flood, median ${(median(aloneTimes) / 1000).toFixed(2)} s)`,
      budget: `≤ ${LATENCY_BUDGET_MS / 1000} s, signed in`,
      ok: slowest <= LATENCY_BUDGET_MS && operatorFailed === 0,
    },
  ];
}
