import type { GeocoderEndpoint } from '../browser/geocoder/client';
import { geocoderEndpoint } from '../geo/geocoder/endpoint';
import type { BlockSpec } from './types';

/** The browser asks the geocoder for the brand's map key. */
export const addressAutocompleteSpec: BlockSpec<'addressAutocomplete', { geocoder: GeocoderEndpoint }> = {
  usesGeocoder: true,
  data: (_block, { brand }) => ({ geocoder: geocoderEndpoint(brand.config.mapKey) }),
};
