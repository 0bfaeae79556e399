import type { BlockProps } from '../types';
import { FaqList } from '../layout/FaqList';
import { Section } from '../layout/Section';

export default function Faq({ block }: BlockProps<'faq'>) {
  return (
    <Section heading={block.heading ?? 'Frequently asked questions'}>
      <FaqList items={block.items} />
    </Section>
  );
}
