import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addCompileHints, COMPILE_HINT } from '../../scripts/compile-hints';

describe('compile hints on the build’s browser chunks (scripts/compile-hints.ts)', () => {
  it('puts V8’s hint first in every .js chunk, nested ones too, once however often it runs; other files untouched', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hints-'));
    mkdirSync(join(dir, 'pages'));
    writeFileSync(join(dir, 'a.js'), '(globalThis.TURBOPACK||[]).push([1]);');
    writeFileSync(join(dir, 'pages', 'b.js'), 'console.log(1)');
    writeFileSync(join(dir, 'c.css'), 'p{color:red}');
    expect(addCompileHints(dir)).toBe(2);
    expect(addCompileHints(dir)).toBe(0);
    expect(readFileSync(join(dir, 'a.js'), 'utf8')).toBe('//# allFunctionsCalledOnLoad\n(globalThis.TURBOPACK||[]).push([1]);');
    expect(readFileSync(join(dir, 'pages', 'b.js'), 'utf8')).toBe(COMPILE_HINT + 'console.log(1)');
    expect(readFileSync(join(dir, 'c.css'), 'utf8')).toBe('p{color:red}');
  });
});
