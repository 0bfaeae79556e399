/** What the listing commands (leads, traces, conversions) say about the --brand they are given. */
import { brandFile, publishedBrands } from '../engine/store/brandRevisions';
import type { Store } from '../engine/store/db';

/**
 * Throws the reason when `brand` is no brand: no file in brands/ and none published from the
 * studio. Asked only when a listing came back empty, so that a brand since removed still lists
 * what it stored, while a mistyped --brand (ipaydayloan) is not read as "no leads".
 */
export async function requireKnownBrand(db: Store, brand: string | undefined): Promise<void> {
  if (!brand || brandFile(brand) || (await publishedBrands(db)).has(brand)) return;
  throw new Error(
    `--brand ${brand}: no brand has that id (no brands/${brand}.json and none published from the studio); give the brand's id, e.g. ipaydayloans`,
  );
}
