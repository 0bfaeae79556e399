import { formatNumber } from '../../engine/browser/amounts';
import type { BlockProps } from '../types';
import { LinkList } from '../chrome/LinkList';
import { Section } from '../chrome/Section';

export default function CityList({ block }: BlockProps<'cityList'>) {
  const { links, total } = block.data;
  return (
    <Section heading={block.heading} wide>
      {links.length < total && (
        <p className="mb-3 text-slate-700">
          The {links.length} largest of {formatNumber(total)} places we cover, A to Z.
        </p>
      )}
      {/* city-tiles: the tiles past the first screen of a phone are laid out only when they come near it (styles/globals.css) */}
      <LinkList links={links} columns="city-tiles xs:grid-cols-2 md:grid-cols-3 lg:grid-cols-4" />
    </Section>
  );
}
