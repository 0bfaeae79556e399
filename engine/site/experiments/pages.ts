/**
 * The pages an experiment adds to a path: the internal paths of its variants that change the
 * page (each a cache entry of its own), for whatever must reach every copy of a page — the CMS
 * webhook's revalidation (pages/api/revalidate.ts).
 */
import type { LoadedBrand } from '../catalog';
import { matchPath } from '../pageMatch';
import { variantSegment } from './variants';

/** A page path's variant paths (inside the brand's internal prefix), none when no experiment covers it. */
export function variantPathsOf(loaded: LoadedBrand, path: string): string[] {
  const match = matchPath(loaded, path);
  const experiment = match && loaded.experiments.of(match.route);
  if (!experiment) return [];
  return experiment.variants.filter((v) => v.changes).map((v) => variantSegment(experiment.id, v.id) + (path === '/' ? '' : path));
}
