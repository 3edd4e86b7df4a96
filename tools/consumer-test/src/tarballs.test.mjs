/**
 * The three tarballs, as `npm pack` makes them (packed once by global-setup.mjs, with npm's own
 * file list and the unpacked files): what a consumer downloads must be complete, resolvable and
 * free of the repository's test code; and the workspace must still link the packages.
 */
import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { LIBRARIES, REPO_ROOT } from './workspace.mjs';

const packed = inject('packed');
const manifestOf = (pkg) => JSON.parse(readFileSync(join(pkg.extracted, 'package.json'), 'utf8'));
const read = (pkg, file) => readFileSync(join(pkg.extracted, file), 'utf8');

/** Every path an `exports` entry or `types` names, without its leading `./`. */
function exportTargets(manifest) {
  const targets = [manifest.types];
  const walk = (value) => (typeof value === 'string' ? targets.push(value) : Object.values(value ?? {}).forEach(walk));
  walk(manifest.exports);
  return targets.filter(Boolean).map((t) => t.replace(/^\.\//, ''));
}

/** The package names a .js or .d.ts file imports (bare specifiers, `react/jsx-runtime` as `react`). */
function importedPackages(text) {
  const specifiers = [...text.matchAll(/\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|\bimport\s+['"]([^'"]+)['"]/g)].map((m) => m[1] ?? m[2] ?? m[3]);
  return specifiers.filter((s) => !s.startsWith('.')).map((s) => s.split('/').slice(0, s.startsWith('@') ? 2 : 1).join('/'));
}

/** The TSDoc comment right above the first line matching `declaration`, its lines' text joined by spaces; null if none. */
function tsdocAbove(text, declaration) {
  const lines = text.split('\n');
  const at = lines.findIndex((line) => declaration.test(line));
  if (at < 1 || !lines[at - 1].trim().endsWith('*/')) return null;
  let start = at - 1;
  while (start > 0 && !lines[start].trim().startsWith('/**')) start--;
  if (!lines[start].trim().startsWith('/**')) return null;
  return lines
    .slice(start, at)
    .map((l) => l.trim().replace(/^\/\*\*|\*\/$/g, '').replace(/^\*\s?/, '').trim())
    .filter(Boolean)
    .join(' ');
}

describe.each(packed)('the $name tarball', (pkg) => {
  const manifest = manifestOf(pkg);
  const files = new Set(pkg.files);

  it('has the README, an MIT LICENSE, package.json and the build', () => {
    for (const file of ['README.md', 'LICENSE', 'package.json', 'dist/index.js', 'dist/index.d.ts']) expect(files, file).toContain(file);
    expect(manifest.license).toBe('MIT');
    expect(read(pkg, 'LICENSE')).toMatch(/^MIT License\n\nCopyright \(c\) 2026 the Fulcrum authors\n/);
    expect(manifest.private).toBeUndefined();
  });

  it('holds no test, test support, fixture or build info', () => {
    expect(pkg.files.filter((f) => /\.test\.|(^|\/)(test-support|fixtures)\/|\.tsbuildinfo$/.test(f))).toEqual([]);
    // npm's list is what is in the tarball.
    const unpacked = readdirSync(pkg.extracted, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    expect(unpacked.length).toBe(pkg.files.length);
  });

  it('has every file its exports and types name', () => {
    const targets = exportTargets(manifest);
    expect(targets.length).toBeGreaterThan(2);
    expect(targets.filter((t) => !files.has(t))).toEqual([]);
  });

  it('has source maps that resolve inside the tarball: each build file names its map, each map its sources', () => {
    const built = pkg.files.filter((f) => /^dist\/.*\.(js|d\.ts)$/.test(f));
    expect(built.length).toBeGreaterThan(4);
    const unresolved = [];
    for (const file of built) {
      const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(read(pkg, file))?.[1];
      const map = url && posix.join(posix.dirname(file), url);
      if (!map || !files.has(map)) {
        unresolved.push(`${file} → ${map ?? 'no map'}`);
        continue;
      }
      const { sources, sourceRoot = '' } = JSON.parse(read(pkg, map));
      for (const source of sources) {
        const path = posix.join(posix.dirname(map), sourceRoot, source);
        if (!files.has(path)) unresolved.push(`${map} → ${path}`);
      }
    }
    expect(unresolved).toEqual([]);
  });

  it('depends on the other Fulcrum packages by their real version (no "*")', () => {
    const versions = Object.fromEntries(packed.map((p) => [p.name, p.version]));
    const internal = ['dependencies', 'peerDependencies', 'devDependencies'].flatMap((field) =>
      Object.entries(manifest[field] ?? {})
        .filter(([name]) => name.startsWith('@fulcrum/'))
        .map(([name, range]) => ({ field, name, range, ok: range === versions[name] || range === `^${versions[name]}` })),
    );
    expect(internal.filter((d) => !d.ok)).toEqual([]);
    if (pkg.name !== '@fulcrum/physics') expect(internal.length).toBeGreaterThan(0);
  });

  it('imports only packages it declares', () => {
    const declared = new Set([pkg.name, ...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);
    const undeclared = pkg.files
      .filter((f) => /^dist\/.*\.(js|d\.ts)$/.test(f))
      .flatMap((f) => importedPackages(read(pkg, f)).filter((name) => !declared.has(name)).map((name) => `${f}: ${name}`));
    expect(undeclared).toEqual([]);
  });
});

describe('the published .d.ts files keep the TSDoc', () => {
  // [package, source file, declaration line, .d.ts file, declaration line there]
  const SAMPLES = [
    ['@fulcrum/physics', 'src/space/space.ts', /^\s+step\(dt/, 'dist/space/space.d.ts', /^\s+step\(dt/],
    ['@fulcrum/physics', 'src/body/body.ts', /^\s+applyImpulse\(/, 'dist/body/body.d.ts', /^\s+applyImpulse\(/],
    ['@fulcrum/symbolic', 'src/symbolic-constraint.ts', /^\s+set\(values/, 'dist/symbolic-constraint.d.ts', /^\s+set\(values/],
    ['@fulcrum/react', 'src/components/Physics.tsx', /^\s+gravity\?:/, 'dist/components/Physics.d.ts', /^\s+gravity\?:/],
  ];
  it.each(SAMPLES)('%s: %s', (name, source, sourceLine, declarations, declarationLine) => {
    const pkg = packed.find((p) => p.name === name);
    const doc = tsdocAbove(read(pkg, source), sourceLine);
    expect(doc, `a TSDoc comment above ${sourceLine} in ${source}`).toMatch(/\w+ \w+/);
    expect(tsdocAbove(read(pkg, declarations), declarationLine)).toBe(doc);
  });

  it('tsdocAbove reads a comment block, and only one right above the line', () => {
    const text = ['/**', ' * Moves it.', ' * @param x metres', ' */', 'move(x) {}', '/** A. */', '', 'b() {}'].join('\n');
    expect(tsdocAbove(text, /^move\(/)).toBe('Moves it. @param x metres');
    expect(tsdocAbove(text, /^b\(/)).toBeNull();
  });
});

describe('the workspace still links the packages, and package-lock.json agrees (npm ci keeps working)', () => {
  const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8'));
  const workspaces = [...LIBRARIES, { name: '@fulcrum/consumer-test', dir: 'tools/consumer-test' }];

  it.each(workspaces)('$name: node_modules links to $dir', ({ name, dir }) => {
    expect(lock.packages[`node_modules/${name}`]).toMatchObject({ resolved: dir, link: true });
    const installed = join(REPO_ROOT, 'node_modules', name);
    expect(lstatSync(installed).isSymbolicLink()).toBe(true);
    expect(realpathSync(installed)).toBe(realpathSync(join(REPO_ROOT, dir)));
  });

  it.each(workspaces)('$name: the lockfile records the dependency ranges of its package.json', ({ dir }) => {
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, dir, 'package.json'), 'utf8'));
    const fields = ['dependencies', 'devDependencies', 'peerDependencies', 'peerDependenciesMeta'];
    const pick = (entry) => Object.fromEntries(fields.filter((f) => entry[f]).map((f) => [f, entry[f]]));
    expect(pick(lock.packages[dir])).toEqual(pick(manifest));
  });
});
