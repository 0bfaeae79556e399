import { BLOCK_ERROR_TEXT } from '../../engine/browser/widgets/layout';

/** SPEC §2/§8 inline fallback where a block's content could not be loaded or rendered (also BlockBoundary's). */
export const OOPS_TEXT = BLOCK_ERROR_TEXT;

export function Oops() {
  return (
    <div role="alert" className="mx-auto my-4 max-w-3xl rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-amber-900">
      {OOPS_TEXT}
    </div>
  );
}
