/** The embedded Mapbox-compatible geocoder (engine/geocode/handler.ts). */
import { geocodingHandler } from '../../../../../engine/geocode/handler';

export const config = { api: { bodyParser: false } };

export default geocodingHandler;
