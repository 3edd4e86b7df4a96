/**
 * The package's two entries: '@fulcrum/react' must never load @fulcrum/symbolic (an optional
 * peer), directly or through any module it imports; '@fulcrum/react/symbolic' is where
 * <SymbolicConstraint> lives. Walks the relative imports of the source from each entry.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import pkg from '../package.json';

const SRC = dirname(fileURLToPath(import.meta.url));
/** Static and dynamic import/export specifiers (comments are stripped first). */
const SPECIFIER = /\b(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|\bimport\s+['"]([^'"]+)['"]/g;

/** Every source file reachable from `entry` through relative imports, with the bare specifiers each one imports. */
function moduleGraph(entry: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const pending = [resolve(SRC, entry)];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (graph.has(file)) continue;
    const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    const bare: string[] = [];
    graph.set(file, bare);
    for (const m of text.matchAll(SPECIFIER)) {
      const spec = (m[1] ?? m[2] ?? m[3])!;
      if (!spec.startsWith('.')) {
        bare.push(spec);
        continue;
      }
      const base = resolve(dirname(file), spec).replace(/\.js$/, '');
      const found = ['.ts', '.tsx', '/index.ts'].map((ext) => base + ext).find(existsSync);
      if (!found) throw new Error(`${relative(SRC, file)}: cannot resolve ${spec}`);
      pending.push(found);
    }
  }
  return graph;
}

function importersOf(graph: Map<string, string[]>, pkgName: string): string[] {
  return [...graph].filter(([, bare]) => bare.some((s) => s === pkgName || s.startsWith(`${pkgName}/`))).map(([file]) => relative(SRC, file));
}

describe('package entries', () => {
  it('the main entry never reaches @fulcrum/symbolic', () => {
    const graph = moduleGraph('index.ts');
    expect(graph.size).toBeGreaterThan(20); // the walk follows the whole package
    expect(importersOf(graph, '@fulcrum/physics').length).toBeGreaterThan(0);
    expect(importersOf(graph, '@fulcrum/symbolic')).toEqual([]);
    expect([...graph.keys()].map((f) => relative(SRC, f)).filter((f) => f.startsWith('symbolic'))).toEqual([]);
  });

  it('the ./symbolic entry is where @fulcrum/symbolic comes in', () => {
    const graph = moduleGraph('symbolic/index.ts');
    expect(importersOf(graph, '@fulcrum/symbolic')).toEqual([join('symbolic', 'SymbolicConstraint.tsx')]);
  });

  it('package.json: @fulcrum/symbolic is an optional peer, and ./symbolic points at this entry, source and build', () => {
    expect(pkg.dependencies).not.toHaveProperty('@fulcrum/symbolic');
    expect(pkg.peerDependenciesMeta['@fulcrum/symbolic'].optional).toBe(true);
    expect(pkg.exports['./symbolic']).toEqual({
      '@fulcrum/source': './src/symbolic/index.ts',
      types: './dist/symbolic/index.d.ts',
      import: './dist/symbolic/index.js',
    });
  });
});
