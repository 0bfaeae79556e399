/**
 * The place of the ZIP (or postal code) the visitor types: city and state appear as soon as a full
 * ZIP is typed. Canada and Australia: the province or state from the postal code itself; the US:
 * the geocoder, asked once per ZIP.
 */
import { useCallback, useEffect, useRef, type Dispatch } from 'react';
import { isZip } from '../../engine/browser/formRules';
import type { Country } from '../../engine/browser/regions';
import type { FormAction } from './formState';
import { lookupZip, placeOfPostalCode, type ZipLookup } from './zip';

/** Looks the typed ZIP up as it is completed; returns the lookup Continue waits on. */
export function useZipPlace(hydrated: boolean, typedZip: string, country: Country, dispatch: Dispatch<FormAction>): (zip: string) => Promise<ZipLookup> {
  const lookups = useRef(new Map<string, Promise<ZipLookup>>());
  const placeFor = useCallback(
    (zip: string): Promise<ZipLookup> => {
      if (country !== 'US') return Promise.resolve(placeOfPostalCode(zip, country));
      let found = lookups.current.get(zip);
      if (!found) lookups.current.set(zip, (found = lookupZip(zip)));
      return found;
    },
    [country],
  );

  useEffect(() => {
    const zip = typedZip.trim();
    if (!hydrated || !isZip(zip, country)) return;
    let current = true;
    void placeFor(zip).then((place) => current && dispatch({ type: 'place', zip, place }));
    return () => {
      current = false;
    };
  }, [hydrated, typedZip, country, dispatch, placeFor]);
  return placeFor;
}
