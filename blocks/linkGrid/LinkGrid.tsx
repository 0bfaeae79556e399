import type { BlockProps } from '../types';
import { LinkList } from '../chrome/LinkList';
import { Section } from '../chrome/Section';

export default function LinkGrid({ block }: BlockProps<'linkGrid'>) {
  return (
    <Section heading={block.heading}>
      <LinkList links={block.links} />
    </Section>
  );
}
