/**
 * The stylesheet leaves out words Tailwind would otherwise take for classes (styles/globals.css,
 * `@source not inline(...)`): a component that names one of them as a class would get no rule for
 * it, and the borrower an unstyled element. Every class list the components and pages write must
 * stay clear of that list.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = process.cwd();
const css = readFileSync(join(ROOT, 'styles/globals.css'), 'utf8');

/** The words of every `@source not inline('…')` of the stylesheet. */
function excludedClasses(sheet: string): string[] {
  return [...sheet.matchAll(/@source\s+not\s+inline\(\s*(['"])(.*?)\1\s*\)/g)].flatMap((m) => m[2]!.split(/\s+/).filter(Boolean));
}

/**
 * The class lists a source file writes: className values (a string, or a template's literal
 * parts) and string literals of two or more words that all look like utilities (a class list kept
 * in a constant).
 */
function classLists(source: string): string[] {
  const lists: string[] = [];
  for (const m of source.matchAll(/className=(?:"([^"]*)"|\{\s*'([^']*)'\s*\}|\{\s*`([^`]*)`\s*\})/g))
    lists.push((m[1] ?? m[2] ?? m[3] ?? '').replace(/\$\{[^}]*\}/g, ' '));
  for (const m of source.matchAll(/'([^'\n]*)'|`([^`$\n]*)`/g)) {
    const words = (m[1] ?? m[2] ?? '').trim().split(/\s+/);
    if (words.length >= 2 && words.every((w) => /^[a-z0-9!:[\]/().%_=&>-]+$/.test(w) && /[-:]/.test(w))) lists.push(words.join(' '));
  }
  return lists;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(tsx?|mjs)$/.test(name) ? [path] : [];
  });
}

describe('classes the stylesheet leaves out', () => {
  it('reads the list from the stylesheet', () => {
    expect(excludedClasses('@source not inline(\'blur  filter\');\n@source not inline("static");')).toEqual(['blur', 'filter', 'static']);
    expect(excludedClasses(css)).toContain('filter');
  });

  it.each([
    ['<p className="mt-2 shadow text-sm">', ['mt-2 shadow text-sm']],
    ["<p className={`flex ${open ? 'block' : ''} static`}>", ['flex   static']],
    ["const button = 'inline-flex min-h-11 rounded-md';", ['inline-flex min-h-11 rounded-md']],
    ["dispatch({ type: 'blur' }); throw new Error('a lowercase path');", []],
  ])('finds the class lists of %s', (source, lists) => expect(classLists(source)).toEqual(lists));

  it('no component or page names one of them as a class', () => {
    const excluded = new Set(excludedClasses(css));
    const named: string[] = [];
    for (const file of [...sourceFiles(join(ROOT, 'blocks')), ...sourceFiles(join(ROOT, 'pages'))])
      for (const list of classLists(readFileSync(file, 'utf8'))) for (const word of list.split(/\s+/)) if (excluded.has(word)) named.push(`${file}: ${word}`);
    expect(named).toEqual([]);
  });
});
