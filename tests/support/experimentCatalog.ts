/** The repository's brands built into a catalog with one experiment added to one brand's file, for console pages rendered over a real store. */
import { BLOCK_SPECS } from '../../blocks/generated/specs';
import { buildCatalog, readSources } from '../../engine/site/catalog';

/** The catalog of the repository's brands, `file`'s brand (e.g. 'brands/weloans.json') running `experiment` as its only one. */
export function catalogWithExperiment(file: string, experiment: Record<string, unknown>): ReturnType<typeof buildCatalog> {
  const sources = readSources({ extraDir: '' });
  const brands = sources.brands.map((s) => {
    if (s.file !== file) return s;
    const doc = JSON.parse(s.text) as Record<string, unknown>;
    doc.experiments = [experiment];
    return { ...s, text: JSON.stringify(doc, null, 2) };
  });
  return buildCatalog(brands, sources.layouts, BLOCK_SPECS);
}
