import type { GeocoderEndpoint } from '../../engine/geocode/client';
import { geocoderEndpoint } from '../../engine/geocode/endpoint';
import type { BlockSpec } from '../../engine/blockSpec';

/** The browser asks the geocoder for the brand's map key. */
export const addressAutocompleteSpec: BlockSpec<'addressAutocomplete', { geocoder: GeocoderEndpoint }> = {
  usesGeocoder: true,
  data: (_block, { brand }) => ({ geocoder: geocoderEndpoint(brand.config.mapKey) }),
};
