/** The embedded Mapbox-compatible geocoder (engine/http/geocodeApi.ts). */
import { geocodingHandler } from '../../../../../engine/http/geocodeApi';

export const config = { api: { bodyParser: false } };

export default geocodingHandler;
