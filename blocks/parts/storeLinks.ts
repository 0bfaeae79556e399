import { STORE_BRANDS } from '../../engine/browser/data/stores';
import type { LinkView } from '../../engine/site/model';

/** The pattern the payday exit popup's store links follow in a first load's data (blocks/hydrationModel.ts). */
export const STORE_SLUG = '{store.slug}';

/** The popup's 11 store brand links from their pattern (rebuilt in the popup's own chunk). */
export const storeLinks = (storeHref: string): LinkView[] => STORE_BRANDS.map((s) => ({ label: s.name, href: storeHref.replace(STORE_SLUG, s.slug) }));
