import type { BlockProps } from '../types';
import { FaqList } from '../chrome/FaqList';
import { Section } from '../chrome/Section';

export default function Faq({ block }: BlockProps<'faq'>) {
  return (
    <Section heading={block.heading ?? 'Frequently asked questions'}>
      <FaqList items={block.items} />
    </Section>
  );
}
