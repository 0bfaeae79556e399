import type { GeocoderEndpoint } from '../browser/geocoder/client';
import { geocoderEndpoint } from '../geo/geocoder/endpoint';
import type { BlockSpec } from './types';

/** loanType: the page's (or the brand's first), for the page a chosen place opens; the geocoder for the brand's map key */
export const locationSearchSpec: BlockSpec<'locationSearch', { loanType: string; geocoder: GeocoderEndpoint }> = {
  usesGeocoder: true,
  isPlaceSearch: true,
  // "Use my location" is shown unless the layout turns it off.
  asksGeolocation: (block) => block.geolocation !== false,
  data: (_block, { brand, params }) => ({ loanType: params.loanType ?? brand.loanTypes[0]!, geocoder: geocoderEndpoint(brand.config.mapKey) }),
};
