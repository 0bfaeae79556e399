/**
 * What a brand page uses from third parties → its Content-Security-Policy (engine/site/csp.mjs):
 * the tag manager when the brand has a container, the pixel when it has one, the geocoder's
 * origin when the page has a block that calls it and the geocoder is not the embedded one, and a
 * third-party application form's loader (its script origin, and the origin it posts leads to), and
 * on a page with the brand's own application form, its consent provider's script (TrustedForm or
 * Jornaya, engine/site/consentProvider.ts) — on that brand's form page only.
 * The front door gives it with each brand page's decision (engine/frontDoor/frontDoor.ts); server.mjs
 * builds the header.
 */
import type { Brand, Layout } from '../../schemas/brand.types';
import { originOf, type PagePolicy } from './csp.mjs';
import { specOf, type BlockSpecs } from './blockSpec';
import { geocoderEndpoint } from '../geo/geocoder/endpoint';
import { consentProviderOf } from './consentProvider';

/** Whether a page calls the geocoder (whose origin, with GEOCODER=mapbox, the policy must allow). */
export const usesGeocoder = (layout: Pick<Layout, 'blocks'>, specs: BlockSpecs): boolean => layout.blocks.some((b) => specOf(specs, b.type).usesGeocoder);

export function pagePolicy(
  brand: Pick<Brand, 'config' | 'consentProvider'>,
  layout: Pick<Layout, 'blocks'> | undefined,
  env: Record<string, string | undefined>,
  specs: BlockSpecs,
): PagePolicy {
  const connect: string[] = [];
  if (layout && usesGeocoder(layout, specs)) {
    const origin = originOf(geocoderEndpoint(brand.config.mapKey, env).base);
    if (origin) connect.push(origin);
  }
  const scripts: string[] = [];
  for (const b of layout?.blocks ?? []) {
    const origins = specOf(specs, b.type).thirdPartyOrigins?.(b);
    if (!origins) continue;
    scripts.push(...origins.scripts);
    connect.push(...origins.connect);
  }
  const ownForm = layout?.blocks.some((b) => specOf(specs, b.type).isApplication && (b as { provider?: string }).provider !== 'script');
  const provider = ownForm ? consentProviderOf(brand, env) : undefined;
  if (provider) {
    scripts.push(...provider.scripts);
    connect.push(...provider.connect);
  }
  return {
    tagManager: !!brand.config.gtmId,
    pixel: !!brand.config.tiktokPixelId,
    ...(connect.length ? { connect: [...new Set(connect)] } : {}),
    ...(scripts.length ? { scripts: [...new Set(scripts)] } : {}),
  };
}
