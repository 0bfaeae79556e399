/**
 * Which pages ask the browser for the visitor's position ("Use my location" in a locationSearch
 * block): those, and only those, should send `Permissions-Policy: geolocation=(self)`.
 */
import type { Layout } from '../../schemas/brand.types';
import type { LoadedBrand } from '../catalog';

export const pageUsesGeolocation = (layout: Pick<Layout, 'blocks'>): boolean =>
  layout.blocks.some((b) => b.type === 'locationSearch' && b.geolocation !== false);

/** The brand's route patterns (e.g. "/{loanType}/location/search") whose pages use geolocation. */
export const geolocationRoutes = (loaded: LoadedBrand): string[] =>
  loaded.routes
    .filter((r) => {
      const layout = loaded.layout(r.layout);
      return layout !== undefined && pageUsesGeolocation(layout);
    })
    .map((r) => r.path);
