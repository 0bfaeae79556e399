import type { BlockProps } from '../types';
import { LinkList } from '../chrome/LinkList';
import { Section } from '../chrome/Section';

export default function CityList({ block }: BlockProps<'cityList'>) {
  const { links, total } = block.data;
  return (
    <Section heading={block.heading} wide>
      {links.length < total && (
        <p className="mb-3 text-slate-700">
          The {links.length} largest of {total.toLocaleString('en-US')} places we cover, A to Z.
        </p>
      )}
      <LinkList links={links} columns="xs:grid-cols-2 md:grid-cols-3 lg:grid-cols-4" />
    </Section>
  );
}
