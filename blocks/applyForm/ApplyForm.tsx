'use client';
import type { BlockProps } from '../types';
import { EmbeddedForm } from './EmbeddedForm';
import { ScriptProvider } from './ScriptProvider';

/**
 * The application form block. Embedded: step 1 amount + ZIP (+ purpose and vehicle
 * on title brands) → state gate → step 2 contact → step 3 income, date of birth, consent and
 * submit → thank-you; POSTs schemas/api/lead.schema.json to /api/leads. The server renders
 * step 1 at its final size; Continue is enabled once the script runs (a note says so without
 * JavaScript). Script provider: a labelled container for a third-party loader.
 */
export default function ApplyFormBlock(props: BlockProps<'applyForm'>) {
  return props.block.provider === 'script' ? <ScriptProvider {...props} /> : <EmbeddedForm {...props} />;
}
