import type { BlockProps } from '../types';
import { Section } from '../layout/Section';

export default function CityCount({ block }: BlockProps<'cityCount'>) {
  return (
    <Section heading={block.heading}>
      <p>{block.data.total.toLocaleString('en-US')} places</p>
    </Section>
  );
}
