/**
 * The published brand revisions the served catalog leaves out because they do not build (a deploy
 * changed a shared layout or a block's schema they use, or a check they no longer pass), as the
 * console's brand pages show them: without this the only trace is a server log line, and the
 * operator sees the brand's site go back to its file, or vanish, with no reason given.
 */
import { refusedRevisions } from '../site/catalog';

/** How many of a refused revision's problems a notice lists (the studio lists them all). */
export const REFUSED_PROBLEMS_SHOWN = 3;

export interface RefusedNotice {
  id: string;
  name: string;
  version: number;
  /** when the revision was published (ISO) */
  publishedAt: string;
  /** the file applies instead, or the brand is not served */
  instead: 'file' | 'nothing';
  /** the first problems: the message, and where it was found (a field of the brand, or a shared file) */
  problems: { message: string; where: string }[];
  /** how many more problems it has */
  more: number;
}

/** The refused revisions of these brands (all of them when no ids are given), by id. */
export function refusedNotices(ids?: readonly string[]): RefusedNotice[] {
  const all = refusedRevisions();
  const wanted = ids ? ids.flatMap((id) => (all.has(id) ? [all.get(id)!] : [])) : [...all.values()].sort((a, b) => a.id.localeCompare(b.id));
  return wanted.map((r) => {
    return {
      id: r.id,
      name: r.name,
      version: r.version,
      publishedAt: r.savedAt,
      instead: r.instead,
      problems: r.problems.slice(0, REFUSED_PROBLEMS_SHOWN).map((f) => ({
        message: f.message,
        // a problem in the revision itself is at one of its fields; one in a shared layout or part, in that file
        where: f.file === r.file ? f.pointer : `${f.file}${f.pointer ? ` ${f.pointer}` : ''}`,
      })),
      more: Math.max(0, r.problems.length - REFUSED_PROBLEMS_SHOWN),
    };
  });
}
