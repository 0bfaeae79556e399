import type { BlockProps } from '../types';
import { Section } from '../chrome/Section';

/**
 * Every state one tap away, compactly: a multi-column grid (three columns on a 390 px phone,
 * two at 320 px) of 44 px tall links, rather than a one-column list of 51.
 */
export default function StateList({ block }: BlockProps<'stateList'>) {
  return (
    <Section heading={block.heading} wide>
      <ul className="state-tiles">
        {block.data.links.map((l) => (
          <li key={l.href}>
            <a href={l.href}>{l.label}</a>
          </li>
        ))}
      </ul>
    </Section>
  );
}
