// Finding the repository's README.md and HISTORY.md files, and the ts/tsx code blocks in them.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The documents checked, by file name. */
export const DOC_NAMES = new Set(['README.md', 'HISTORY.md']);

/** Folders never searched: dependencies, build output, caches, test output. */
const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'storybook-static', '.turbo', 'coverage', 'test-artifacts']);

/** The fence word that opts a block out of type-checking (```ts no-check). Use sparingly. */
export const NO_CHECK = 'no-check';

/** Every README.md and HISTORY.md under `root`, as paths relative to it (with `/`), sorted. */
export function findDocs(root = REPO_ROOT) {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.')) walk(join(dir, entry.name));
      } else if (entry.isFile() && DOC_NAMES.has(entry.name)) {
        found.push(relative(root, join(dir, entry.name)).split(sep).join('/'));
      }
    }
  };
  walk(root);
  return found.sort();
}

/**
 * The fenced code blocks of a markdown text: { lang, flags, line, code }, where `line` is the
 * 1-based line of the block's first code line, `lang` the fence's first word and `flags` the rest.
 * A fence may be indented (inside a list item); its indentation is removed from the code lines.
 */
export function extractBlocks(markdown) {
  const lines = markdown.split(/\r?\n/);
  const blocks = [];
  let open = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!open) {
      const m = /^( {0,3}|\s*)(`{3,}|~{3,})\s*([^`]*)$/.exec(line);
      if (!m) continue;
      const [lang = '', ...flags] = m[3].trim().split(/\s+/).filter(Boolean);
      open = { indent: m[1].length, fence: m[2], lang: lang.toLowerCase(), flags, line: i + 2, code: [] };
      continue;
    }
    const close = /^\s*(`{3,}|~{3,})\s*$/.exec(line);
    if (close && close[1][0] === open.fence[0] && close[1].length >= open.fence.length) {
      blocks.push({ lang: open.lang, flags: open.flags, line: open.line, code: open.code.join('\n') });
      open = null;
      continue;
    }
    const strip = Math.min(open.indent, /^\s*/.exec(line)[0].length);
    open.code.push(line.slice(strip));
  }
  return blocks;
}

/** The ts and tsx blocks of a markdown text (with `checked`: false for a block marked no-check). */
export function typeScriptBlocks(markdown) {
  return extractBlocks(markdown)
    .filter((b) => b.lang === 'ts' || b.lang === 'tsx' || b.lang === 'typescript')
    .map((b) => ({ ...b, ext: b.lang === 'tsx' ? 'tsx' : 'ts', checked: !b.flags.includes(NO_CHECK) }));
}

/** Every ts/tsx block of every document: { doc, index, ...block }. */
export function collectBlocks(root = REPO_ROOT) {
  return findDocs(root).flatMap((doc) => typeScriptBlocks(readFileSync(join(root, doc), 'utf8')).map((b, index) => ({ doc, index, ...b })));
}

/** Absolute paths of a machine (home folders, scratch and work folders) that must not appear in a document. */
export const MACHINE_PATH = /(^|[\s`'"(=:])(\/(?:work|home|root|tmp|Users|private\/var|var\/folders|mnt)\/|[A-Za-z]:\\\\(?:Users|Windows)\\\\)/;

/** The lines of a text that name an absolute machine path: { line, text }. */
export function machinePathLines(text) {
  return text
    .split(/\r?\n/)
    .map((t, i) => ({ line: i + 1, text: t }))
    .filter((l) => MACHINE_PATH.test(l.text));
}
