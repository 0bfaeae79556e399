import type { BlockProps } from '../types';
import { LinkList } from '../layout/LinkList';
import { Section } from '../layout/Section';

export default function LinkGrid({ block }: BlockProps<'linkGrid'>) {
  return (
    <Section heading={block.heading}>
      <LinkList links={block.links} />
    </Section>
  );
}
