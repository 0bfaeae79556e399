import type { GeocoderEndpoint } from '../../engine/browser/geocoder/client';
import { geocoderEndpoint } from '../../engine/geo/geocoder/endpoint';
import type { BlockSpec } from '../../engine/site/blockSpec';

/** The browser asks the geocoder for the brand's map key. */
export const addressAutocompleteSpec: BlockSpec<'addressAutocomplete', { geocoder: GeocoderEndpoint }> = {
  usesGeocoder: true,
  data: (_block, { brand }) => ({ geocoder: geocoderEndpoint(brand.config.mapKey) }),
};
