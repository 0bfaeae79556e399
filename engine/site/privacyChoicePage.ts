/**
 * Where a brand's privacy-choice page is, from its routes and their layouts' blocks. Kept apart
 * from engine/browser/privacy.ts, which the browser also loads: this asks the block specs, which are
 * server code.
 */
import type { Brand, Layout } from '../../schemas/brand.types';
import { specOf } from '../blockSpecs';
import type { LayoutParams } from './layoutParams';

/**
 * The brand's privacy-choice page (US brands, "Do Not Sell or Share My Personal Information"):
 * the first route without parameters whose layout has a privacyChoice block.
 */
export function privacyChoicePath(
  brand: Pick<Brand, 'routes'>,
  layoutOf: (name: string, params?: LayoutParams) => Pick<Layout, 'blocks'> | undefined,
): string | undefined {
  // the blocks the route's pages show (a switched block counts only on the routes that switch it on)
  return brand.routes.find((r) => !r.path.includes('{') && layoutOf(r.layout, r.layoutParams)?.blocks.some((b) => specOf(b.type).offersPrivacyChoices))?.path;
}
