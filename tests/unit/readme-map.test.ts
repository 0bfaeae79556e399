import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = process.cwd();
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const README = read('README.md');

const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
const foldersAt = (prefix: string) =>
  [...new Set(tracked.filter((f) => f.startsWith(prefix) && f.slice(prefix.length).includes('/')).map((f) => prefix + f.slice(prefix.length).split('/')[0]))]
    .filter((f) => !f.slice(prefix.length).startsWith('.') && !f.endsWith('node_modules'))
    .sort();

/** The first cell of each row of the README's folder-map table: `brands/` → "brands". */
function mapEntries(): string[] {
  const start = README.indexOf('\n## Folder map\n');
  expect(start, 'README.md has a "## Folder map" section').toBeGreaterThan(-1);
  const end = README.indexOf('\n## ', start + 1);
  const section = README.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^\| `([^`]+?)\/?` /gm)].map((m) => m[1] ?? '');
}

const docFiles = readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`)
  .sort();
const pagesWithLinks = ['README.md', ...docFiles];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
const withoutFences = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '');
const withoutCode = (text: string) => withoutFences(text).replace(/`[^`\n]*`/g, '');
const anchorsIn = (text: string) => new Set([...withoutFences(text).matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1] ?? '')));

/** Every relative link of a Markdown page: [text](target) and ![alt](target), outside code. */
function relativeLinks(file: string): { target: string; path: string; anchor?: string }[] {
  return [...withoutCode(read(file)).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1] ?? '')
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) => {
      const [path = '', anchor] = target.split('#');
      return { target, path: path ? normalize(join(dirname(file), decodeURI(path))) : file, anchor };
    });
}

describe('the README is a front page', () => {
  it('is at most 200 lines', () => {
    expect(README.trimEnd().split('\n').length).toBeLessThanOrEqual(200);
  });

  it('keeps the two set-up commands', () => {
    expect(README).toContain('. scripts/ensure-node.sh && npm install && npm start');
    expect(README).toContain('. scripts/ensure-node.sh && npm install && npm test');
  });
});

describe("the README's folder map", () => {
  const entries = new Set(mapEntries());

  it.each(foldersAt(''))('names the top-level folder %s/', (folder) => {
    expect(entries.has(folder), `add a row for \`${folder}/\` to the folder map in README.md`).toBe(true);
  });

  it.each(foldersAt('engine/'))('names the engine folder %s/', (folder) => {
    expect(entries.has(folder), `add a row for \`${folder}/\` to the folder map in README.md`).toBe(true);
  });

  it('names only folders that exist', () => {
    const missing = [...entries].filter((e) => !existsSync(join(root, e)));
    expect(missing, 'the folder map names folders that do not exist').toEqual([]);
  });
});

describe('links in the README and the docs', () => {
  it.each(pagesWithLinks)('every relative link in %s points to a file that exists', (file) => {
    const broken = relativeLinks(file)
      .filter(({ path }) => !existsSync(join(root, path)))
      .map(({ target }) => target);
    expect(broken).toEqual([]);
  });

  it.each(pagesWithLinks)('every link from %s to a heading of a Markdown page names a heading it has', (file) => {
    const broken = relativeLinks(file)
      .filter(({ path, anchor }) => anchor && path.endsWith('.md') && existsSync(join(root, path)) && statSync(join(root, path)).isFile())
      .filter(({ path, anchor }) => !anchorsIn(read(path)).has(anchor!))
      .map(({ target }) => target);
    expect(broken).toEqual([]);
  });
});
