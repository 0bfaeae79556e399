import { citiesByName } from '../geo/cities';
import { cityPage, cityPageCount } from '../site/directory';
import type { LinkView } from '../site/model';
import { cityItemVars } from '../site/routeParams';
import { pageLinks, withoutPageNumber } from './links';
import type { BlockSpec } from './types';

type Current = LinkView & { current: boolean };

export interface CityIndexData {
  groups: { letter: string; links: LinkView[] }[];
  total: number;
  letters?: Current[];
  pages?: { current: number; count: number; links: Current[] };
}

const LETTERS = [...'abcdefghijklmnopqrstuvwxyz'];

export const cityIndexSpec: BlockSpec<'cityIndex', CityIndexData> = {
  data: (block, { params, state, path, itemFill }) => {
    const letterLinks = (current?: string) =>
      block.letterHrefTemplate
        ? { letters: LETTERS.map((l) => ({ label: l.toUpperCase(), href: itemFill(block.letterHrefTemplate!, { 'letter.slug': l }), current: l === current })) }
        : {};
    if (block.scope === 'letter') {
      const letter = params.letter ?? 'a';
      const page = params.page ?? 1;
      const count = cityPageCount(letter);
      const links = cityPage(letter, page).map((c) => ({
        label: `${c.name}, ${c.stateCode.toUpperCase()}`,
        href: itemFill(block.hrefTemplate, cityItemVars(c)),
      }));
      return {
        groups: [{ letter: letter.toUpperCase(), links }],
        total: count,
        ...letterLinks(letter),
        ...(count > 1 ? { pages: { current: page, count, links: pageLinks(withoutPageNumber(path, params.page), page, count) } } : {}),
      };
    }
    const cities = state ? citiesByName(state.code) : [];
    const groups = new Map<string, LinkView[]>();
    for (const c of cities) {
      const letter = c.name.charAt(0).toUpperCase();
      groups.set(letter, [...(groups.get(letter) ?? []), { label: c.name, href: itemFill(block.hrefTemplate, cityItemVars(c)) }]);
    }
    return { groups: [...groups].map(([letter, links]) => ({ letter, links })), total: cities.length, ...letterLinks() };
  },
  check: (block, { needs, hasParam }) => {
    if (block.scope === 'letter') needs('{letter}', (r) => hasParam(r, 'letter'));
    else needs('{state}, {stateCode}, {city} or {cityState}', (r) => hasParam(r, 'state', 'stateCode', 'city', 'cityState'));
  },
};
