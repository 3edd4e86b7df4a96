import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { collectBlocks, extractBlocks, findDocs, machinePathLines, NO_CHECK, REPO_ROOT, typeScriptBlocks } from './readme-blocks.mjs';
import { typecheckBlocks } from './typecheck.mjs';

const docs = findDocs();
const blocks = collectBlocks();

describe('the documents', () => {
  it('include the root README and every package README', () => {
    expect(docs).toContain('README.md');
    for (const d of ['packages/physics/README.md', 'packages/react/README.md', 'packages/symbolic/README.md', 'packages/bench/README.md', 'packages/bench/HISTORY.md']) {
      expect(docs).toContain(d);
    }
    expect(docs.some((d) => d.includes('node_modules'))).toBe(false);
  });

  it.each(docs)('%s names no absolute path of a machine', (doc) => {
    const hits = machinePathLines(readFileSync(join(REPO_ROOT, doc), 'utf8')).map((l) => `${doc}:${l.line}: ${l.text.trim()}`);
    expect(hits).toEqual([]);
  });

  it(`the root README opts no block out of type-checking (${NO_CHECK})`, () => {
    expect(blocks.filter((b) => b.doc === 'README.md' && !b.checked).map((b) => `README.md:${b.line}`)).toEqual([]);
  });
});

describe('ts and tsx blocks type-check against the workspace sources', () => {
  const checked = blocks.filter((b) => b.checked);
  let results = new Map();
  beforeAll(() => {
    results = new Map(typecheckBlocks(checked).map((r) => [r.block, r.errors]));
  });

  it('there are blocks to check', () => {
    expect(checked.length).toBeGreaterThan(0);
  });

  it.each(checked.map((b) => [`${b.doc}:${b.line}`, b]))('%s', (_name, block) => {
    expect(results.get(block)).toEqual([]);
  });
});

describe('block extraction', () => {
  it('finds fenced blocks with their language, flags and first code line, indented or not', () => {
    const md = ['# t', '```ts', 'const a = 1;', '```', '- item', '  ```tsx no-check', '  <A />', '  ```', '````md', '```ts', 'not a block', '```', '````'].join('\n');
    expect(extractBlocks(md)).toEqual([
      { lang: 'ts', flags: [], line: 3, code: 'const a = 1;' },
      { lang: 'tsx', flags: ['no-check'], line: 7, code: '<A />' },
      { lang: 'md', flags: [], line: 10, code: '```ts\nnot a block\n```' },
    ]);
    expect(typeScriptBlocks(md).map((b) => [b.ext, b.checked])).toEqual([
      ['ts', true],
      ['tsx', false],
    ]);
  });

  it('reports a block that does not compile at its line in the document', () => {
    const [r] = typecheckBlocks([{ doc: 'X.md', index: 0, line: 10, ext: 'ts', code: "import { Space } from '@fulcrum/physics';\nconst s: Space = 1;" }]);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatch(/^X\.md:11:7 TS2322/);
  });

  it('spots machine paths and leaves relative and URL paths alone', () => {
    // (Paths of no machine this project runs on: a fixture must not name one.)
    expect(machinePathLines('see /mnt/some-checkout/x\nok packages/react\n`/Users/me`\nhttp://localhost:6006/mnt/x\n(C:\\\\Users\\\\me)')).toEqual([
      { line: 1, text: 'see /mnt/some-checkout/x' },
      { line: 3, text: '`/Users/me`' },
      { line: 5, text: '(C:\\\\Users\\\\me)' },
    ]);
  });
});
