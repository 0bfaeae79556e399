/**
 * A publish rebuilds the catalog on every instance, synchronously: every request the instance
 * holds waits meanwhile. Measured in this process, as each instance does it (overlayCatalog over
 * the build's files): with BRANDS published brands (copies of ipaydayloans under their own ids and
 * hosts, as the studio's "copy of a brand" makes them), the rebuild after one of them is published
 * again, against a build from nothing (what every publish cost before a build kept the brands it
 * had checked), side by side in ROUNDS rounds, alternating which goes first; medians.
 */
import { readFileSync } from 'node:fs';
import type { Brand } from '../../schemas/brand.types';
import { BLOCK_SPECS } from '../../blocks/generated/specs';
import { fileCatalog, overlayCatalog, type BrandRevisionSource, type Overlay } from '../../engine/site/catalog';
import { median, type Row } from './context';

const BRANDS = Number(process.env.BENCH_CATALOG_BRANDS ?? 40);
const ROUNDS = Number(process.env.BENCH_CATALOG_ROUNDS ?? 9);
/** where buildCatalog keeps the brands it built (engine/site/catalog.ts): forgotten for a build from nothing */
const BUILT = Symbol.for('loansites.catalog.builtBrands');

export async function catalogRebuildRows(): Promise<Row[]> {
  const base = fileCatalog(BLOCK_SPECS);
  const template = JSON.parse(readFileSync('brands/ipaydayloans.json', 'utf8')) as Brand & { blogHost?: string };
  delete template.blogHost;
  let version = 0;
  const revision = (i: number, about: string): BrandRevisionSource => {
    const id = `benchcopy${i}`;
    const document = { ...structuredClone(template), id, hosts: [`${id}.example`] } as Brand;
    document.footer.about = about;
    return { key: id, version: ++version, document, savedAt: new Date(Date.UTC(2026, 10, 1, 0, 0, i)).toISOString() };
  };
  const revisions = new Map(Array.from({ length: BRANDS }, (_, i) => [`benchcopy${i}`, revision(i, 'First text.')] as const));

  const time = (work: () => Overlay): { ms: number; made: Overlay } => {
    const t0 = performance.now();
    const made = work();
    return { ms: performance.now() - t0, made };
  };
  let previous = overlayCatalog(base, revisions);
  // warm: the checks compile their schemas and the JIT settles
  for (let i = 0; i < 3; i++) previous = overlayCatalog(base, new Map(revisions), previous);

  const fromNothing: number[] = [];
  const afterPublish: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const publish = () => {
      const changed = new Map(revisions);
      const i = round % BRANDS;
      changed.set(`benchcopy${i}`, revision(i, `Published again, round ${round}.`));
      const r = time(() => overlayCatalog(base, changed, previous));
      if (r.made.catalog.brands.size !== base.brands.size + BRANDS) throw new Error(`the rebuild served ${r.made.catalog.brands.size} brands`);
      previous = r.made;
      afterPublish.push(r.ms);
    };
    const whole = () => {
      delete (globalThis as { [BUILT]?: unknown })[BUILT];
      const r = time(() => overlayCatalog(base, new Map(revisions)));
      previous = r.made;
      fromNothing.push(r.ms);
    };
    if (round % 2) {
      whole();
      publish();
    } else {
      publish();
      whole();
    }
  }
  const ratio = median(afterPublish) / median(fromNothing);
  return [
    {
      figure: `catalog rebuild after one publish ÷ from nothing (${BRANDS} published brands)`,
      measured: `${ratio.toFixed(3)}× (${median(afterPublish).toFixed(1)} ms against ${median(fromNothing).toFixed(1)} ms)`,
      budget: '≤ 0.25×',
      ok: ratio <= 0.25,
      note: `overlayCatalog in the bench's own process over the ${base.brands.size} brand files and ${BRANDS} published copies of ipaydayloans; one copy's text changed per round, ${ROUNDS} rounds alternating which goes first; medians (the instance serves nothing while it runs)`,
    },
  ];
}
