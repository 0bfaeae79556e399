/**
 * The sale bench's stand-in buyers in a process of their own (as real buyers are: the sale must
 * not share its event loop with them). Reads BENCH_SALE_BUYERS (JSON: [{ id, ping }]) and
 * BENCH_SALE_SECRET, prints one line of JSON — the buyers' documents — and serves until killed.
 */
import { startStandInBuyer, type PingBehaviour } from '../../tests/support/standInBuyer';

const specs = JSON.parse(process.env.BENCH_SALE_BUYERS ?? '[]') as { id: string; ping: PingBehaviour }[];
const documents = await Promise.all(
  specs.map(async ({ id, ping }) => {
    const b = await startStandInBuyer(id, process.env.BENCH_SALE_SECRET ?? '', { ping });
    b.quiet = true;
    return b.document({ timeouts: { pingMs: Number(process.env.BENCH_SALE_PING_MS ?? 1000), postMs: 5000 } });
  }),
);
console.log(JSON.stringify(documents));
