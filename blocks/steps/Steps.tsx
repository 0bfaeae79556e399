import type { BlockProps } from '../types';
import { Section } from '../chrome/Section';

export default function Steps({ block }: BlockProps<'steps'>) {
  return (
    <Section heading={block.heading}>
      <ol className="steps">
        {block.items.map((step, i) => (
          <li key={step.title}>
            <span aria-hidden="true">{i + 1}</span>
            <div>
              <h3>{step.title}</h3>
              <p>{step.text}</p>
            </div>
          </li>
        ))}
      </ol>
    </Section>
  );
}
