/**
 * The shared constraint parts (softness.ts, dense.ts) are written once and called from every
 * solver's hot loop; that costs nothing only if V8 inlines them. This test shows it does: it
 * transpiles the engine to plain JavaScript, steps a pyramid and a chain in a child Node with
 * --trace-turbo-inlining (compilation made synchronous, so the trace is complete), and looks for
 * each part inlined into the passes that call it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const srcDir = dirname(dirname(fileURLToPath(import.meta.url)));
const outDir = mkdtempSync(join(tmpdir(), 'fulcrum-inlining-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

function transpileTree(dir: string): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) transpileTree(path);
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) {
      const js = ts.transpileModule(readFileSync(path, 'utf8'), { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
      const out = join(outDir, relative(srcDir, path)).replace(/\.ts$/, '.js');
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, js);
    }
  }
}

const DRIVER = `
import { Space, Body, Polygon, PivotJoint } from './index.js';
const space = new Space({ gravity: [0, -10], allowSleep: false });
space.addBody(new Body({ type: 'static', position: [0, -0.5], shapes: [Polygon.box(100, 1)] }));
for (let r = 0; r < 10; r++) for (let i = 0; i < 10 - r; i++) space.addBody(new Body({ position: [i - (9 - r) / 2, 0.5 + r], shapes: [Polygon.box(1, 1)] }));
let prev = space.addBody(new Body({ type: 'static', position: [0, 30] }));
for (let k = 0; k < 60; k++) {
  const link = space.addBody(new Body({ position: [k + 0.5, 30], shapes: [Polygon.box(1, 0.25, { filter: { mask: 0 } })] }));
  space.addConstraint(new PivotJoint({ body1: prev, body2: link, anchor1: k === 0 ? [0, 0] : [0.5, 0], anchor2: [-0.5, 0] }));
  prev = link;
}
for (let i = 0; i < 400; i++) space.step(1 / 60);
`;

/** "callee into caller" pairs the trace reports. */
function inlinedPairs(trace: string): Set<string> {
  const pairs = new Set<string>();
  for (const m of trace.matchAll(/Inlining .*?<SharedFunctionInfo (\w+)>.*? into .*?<SharedFunctionInfo (\w+)>/g)) pairs.add(`${m[1]} into ${m[2]}`);
  return pairs;
}

describe('shared constraint parts', () => {
  it('are inlined into the solvers that call them', () => {
    transpileTree(srcDir);
    writeFileSync(join(outDir, 'package.json'), '{"type":"module"}');
    writeFileSync(join(outDir, 'driver.js'), DRIVER);
    const run = spawnSync(process.execPath, ['--trace-turbo-inlining', '--no-concurrent-recompilation', 'driver.js'], { cwd: outDir, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    expect(run.status, run.stderr).toBe(0);
    const pairs = inlinedPairs(run.stdout);
    // the contact solver's passes, the joint batch's stiff loop and position pass, its pass dispatch
    for (const pair of ['softUpdate into pass', 'clamp into pass', 'inverseDet2 into solveStiffPivotRows', 'inverseDet2 into solvePosition', 'isRigid into pass']) {
      expect(pairs, `expected V8 to inline ${pair}`).toContain(pair);
    }
  }, 60_000);
});
