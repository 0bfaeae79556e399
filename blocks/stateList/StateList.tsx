import type { BlockProps } from '../types';
import { LinkList } from '../layout/LinkList';
import { Section } from '../layout/Section';

export default function StateList({ block }: BlockProps<'stateList'>) {
  return (
    <Section heading={block.heading} wide>
      <LinkList links={block.data.links} columns="xs:grid-cols-2 md:grid-cols-3 lg:grid-cols-4" />
    </Section>
  );
}
