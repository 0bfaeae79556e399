/**
 * The studio's published brands and the files in git:
 *
 *   npm run brands:status   lists the brands whose newest published revision differs from their
 *                           file (or that have no file yet), and those whose file a deploy changed
 *                           under a published revision
 *   npm run brands:pull     writes each such published revision into brands/{id}.json, changing
 *                           only what changed: the file's own layout (which lists sit on one line,
 *                           which objects are spread out) is kept, then Prettier formats it as the
 *                           repository does, so `git diff` shows the edit and nothing else
 *
 * Both read the store the server uses (DATABASE_URL, else LOANSITES_DB_FILE or data/loansites.sqlite).
 * Pulled files are the base the next build ships; the published revision stays the live one.
 */
import './check-node.cjs';
import { isDeepStrictEqual } from 'node:util';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { applyEdits, modify, type JSONPath } from 'jsonc-parser';
import { closeStore, getStore } from '../engine/store/db';
import { brandFile, brandFileChanged, publishedBrands } from '../engine/store/brandRevisions';
import { brandFileText } from '../engine/site/brandScaffold';
import { parseJson } from '../engine/validate/locate';
import type { Brand } from '../schemas/brand.types';

const root = () => process.env.LOANSITES_ROOT || process.cwd();
type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The paths where `after` differs from `before`, as deep as the change goes (a list that changed length is replaced whole). */
function changes(before: Json, after: Json, path: JSONPath = []): { path: JSONPath; value: Json }[] {
  if (isDeepStrictEqual(before, after)) return [];
  if (isObject(before) && isObject(after)) {
    const out: { path: JSONPath; value: Json }[] = [];
    for (const key of Object.keys(before)) if (!(key in after)) out.push({ path: [...path, key], value: undefined });
    for (const [key, value] of Object.entries(after))
      out.push(...(key in before ? changes(before[key], value, [...path, key]) : [{ path: [...path, key], value }]));
    return out;
  }
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) return after.flatMap((v, i) => changes(before[i], v, [...path, i]));
  return [{ path, value: after }];
}

/** The file's text with the document's changes made in place, formatted as the repository formats JSON. */
export async function pulledText(fileText: string | undefined, document: Brand): Promise<string> {
  const { format, resolveConfig } = await import('prettier');
  const options = { ...(await resolveConfig(join(root(), 'brands/x.json'))), parser: 'json' };
  if (fileText === undefined) return format(brandFileText(document as Omit<Brand, '$schema'>), options);
  const before = JSON.parse(fileText) as Record<string, Json>;
  // the file's "$schema" stays: the studio's documents do not carry it
  const after: Record<string, Json> = {
    ...(before.$schema !== undefined ? { $schema: before.$schema } : {}),
    ...(document as unknown as Record<string, Json>),
  };
  let text = fileText;
  for (const c of changes(before, after)) text = applyEdits(text, modify(text, c.path, c.value, { formattingOptions: { insertSpaces: true, tabSize: 2 } }));
  return format(text, options);
}

async function main(): Promise<number> {
  const command = process.argv[2];
  if (command !== 'pull' && command !== 'status') {
    console.error('usage: npm run brands:status | npm run brands:pull');
    return 2;
  }
  const db = await getStore();
  try {
    const published = await publishedBrands(db);
    let differing = 0;
    // a file that is not JSON (an edit under way) is named with its line; pull then writes no file,
    // so it never stops halfway with some brands written and the others not
    const unreadable: string[] = [];
    const writes: { where: string; text: string; by: string }[] = [];
    for (const [id, revision] of [...published].sort(([a], [b]) => a.localeCompare(b))) {
      const file = brandFile(id);
      const parsed = file ? parseJson(file.text) : undefined;
      if (file && parsed?.error) {
        const { line, column } = parsed.error.position;
        unreadable.push(`${file.file}:${line}:${column} ${parsed.error.message}; fix the file (npm run validate says where) and run brands:${command} again`);
        continue;
      }
      const fileDoc = parsed?.value as Record<string, Json> | undefined;
      const { $schema: _schema, ...fileBrand } = fileDoc ?? {};
      const same = fileDoc !== undefined && isDeepStrictEqual(fileBrand, revision.document);
      if (same) continue;
      differing++;
      const where = file?.file ?? `brands/${id}.json`;
      const by = `version ${revision.version} published by ${revision.author} at ${revision.savedAt}`;
      if (command === 'status') {
        const note = !file
          ? 'no file yet'
          : brandFileChanged(revision, file)
            ? 'differs; the file was also changed by a deploy since'
            : 'differs from the file';
        console.log(`${id}\t${by}\t${where}: ${note}`);
        continue;
      }
      writes.push({ where, by, text: await pulledText(file?.text, revision.document) });
    }
    if (unreadable.length) {
      for (const line of unreadable) console.error(`brands:${command}: ${line}`);
      if (command === 'pull') {
        console.error('brands:pull: nothing was written');
        return 1;
      }
    }
    for (const { where, text, by } of writes) {
      mkdirSync(dirname(join(root(), where)), { recursive: true });
      writeFileSync(join(root(), where), text);
      console.log(`brands:pull: wrote ${where} (${by})`);
    }
    if (!differing && !unreadable.length) console.log(`brands:${command}: every published brand is the same as its file`);
    return unreadable.length ? 1 : 0;
  } finally {
    await closeStore();
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`brands: ${(err as Error).message}`);
      process.exit(1);
    },
  );
