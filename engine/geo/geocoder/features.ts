/** The embedded geocoder's rows as Mapbox Geocoding v5 features (same ids, names and context order as Mapbox's). */
import type { Place, Postcode, Region } from './data';
import type { V5ContextItem, V5Feature } from '../../browser/geocoder/v5';

export const COUNTRY = { id: 'country.840', short_code: 'us', text: 'United States' } as const;

const regionItem = (r: Region): V5ContextItem => ({ id: `region.${r.fips}`, short_code: `US-${r.code.toUpperCase()}`, text: r.name });
const placeItem = (p: Place): V5ContextItem => ({ id: `place.${p.index}`, text: p.name });

function base(
  id: string,
  type: string,
  text: string,
  placeName: string,
  center: [number, number],
  relevance: number,
  context: V5ContextItem[],
  properties: V5Feature['properties'] = {},
): V5Feature {
  return {
    id,
    type: 'Feature',
    place_type: [type],
    relevance,
    properties,
    text,
    place_name: placeName,
    center,
    geometry: { type: 'Point', coordinates: center },
    context,
  };
}

export const regionFeature = (r: Region, relevance = 1): V5Feature =>
  base(`region.${r.fips}`, 'region', r.name, `${r.name}, ${COUNTRY.text}`, r.center, relevance, [{ ...COUNTRY }], { short_code: `US-${r.code.toUpperCase()}` });

export const placeFeature = (p: Place, region: Region, relevance = 1): V5Feature =>
  base(`place.${p.index}`, 'place', p.name, `${p.name}, ${region.name}, ${COUNTRY.text}`, [p.lon, p.lat], relevance, [regionItem(region), { ...COUNTRY }]);

export const postcodeFeature = (pc: Postcode, region: Region, relevance = 1): V5Feature =>
  base(`postcode.${pc.zip}`, 'postcode', pc.zip, `${pc.place.name}, ${region.name} ${pc.zip}, ${COUNTRY.text}`, [pc.lon, pc.lat], relevance, [
    placeItem(pc.place),
    regionItem(region),
    { ...COUNTRY },
  ]);

/** `language=en`: Mapbox adds text_en / place_name_en / language_en; names here are English only. */
export function withLanguage(feature: V5Feature, language: string): V5Feature {
  const context = feature.context?.map((c) => ({ ...c, [`text_${language}`]: c.text, [`language_${language}`]: language, language }));
  return {
    ...feature,
    [`text_${language}`]: feature.text,
    [`language_${language}`]: language,
    language,
    [`place_name_${language}`]: feature.place_name,
    ...(context ? { context } : {}),
  };
}
