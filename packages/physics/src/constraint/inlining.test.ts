/**
 * The shared constraint parts (softness.ts, dense.ts) are written once and called from every
 * solver's hot loop; that costs nothing only if V8 inlines them. This test shows it does: it
 * transpiles the engine to plain JavaScript, steps a pyramid, a chain and a chain of soft user
 * pivots in a child Node with
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
import { Space, Body, Polygon, PivotJoint, UserConstraint, BodyState, BODY_STATE_STRIDE } from './index.js';
// A soft pivot written as a user constraint in jacobian form (packed state): the user batch takes it.
const O2 = BODY_STATE_STRIDE, X = BodyState.x, Y = BodyState.y, C = BodyState.cos, S = BodyState.sin, CX = BodyState.comX, CY = BodyState.comY;
const ax = (st, o, lx, ly) => st[o + X] + st[o + C] * lx - st[o + S] * ly;
const ay = (st, o, lx, ly) => st[o + Y] + st[o + S] * lx + st[o + C] * ly;
class SoftUserPivot extends UserConstraint {
  constructor(b1, b2, a1, a2) {
    super({ dimensions: 2, packedState: true, bodies: [b1, b2], stiff: false, frequency: 8, damping: 0.7, maxForce: 500 });
    this.a1 = a1; this.a2 = a2;
  }
  position(err, st) {
    err[0] = ax(st, O2, this.a2[0], this.a2[1]) - ax(st, 0, this.a1[0], this.a1[1]);
    err[1] = ay(st, O2, this.a2[0], this.a2[1]) - ay(st, 0, this.a1[0], this.a1[1]);
  }
  jacobian(J, st) {
    const r1x = ax(st, 0, this.a1[0], this.a1[1]) - st[CX], r1y = ay(st, 0, this.a1[0], this.a1[1]) - st[CY];
    const r2x = ax(st, O2, this.a2[0], this.a2[1]) - st[O2 + CX], r2y = ay(st, O2, this.a2[0], this.a2[1]) - st[O2 + CY];
    J[0] = -1; J[1] = 0; J[2] = r1y; J[3] = 1; J[4] = 0; J[5] = -r2y;
    J[6] = 0; J[7] = -1; J[8] = -r1x; J[9] = 0; J[10] = 1; J[11] = r2x;
  }
}
const space = new Space({ gravity: [0, -10], allowSleep: false });
space.addBody(new Body({ type: 'static', position: [0, -0.5], shapes: [Polygon.box(100, 1)] }));
for (let r = 0; r < 10; r++) for (let i = 0; i < 10 - r; i++) space.addBody(new Body({ position: [i - (9 - r) / 2, 0.5 + r], shapes: [Polygon.box(1, 1)] }));
let prev = space.addBody(new Body({ type: 'static', position: [0, 30] }));
for (let k = 0; k < 60; k++) {
  const link = space.addBody(new Body({ position: [k + 0.5, 30], shapes: [Polygon.box(1, 0.25, { filter: { mask: 0 } })] }));
  space.addConstraint(new PivotJoint({ body1: prev, body2: link, anchor1: k === 0 ? [0, 0] : [0.5, 0], anchor2: [-0.5, 0] }));
  prev = link;
}
let uprev = space.addBody(new Body({ type: 'static', position: [0, 60] }));
for (let k = 0; k < 30; k++) {
  const link = space.addBody(new Body({ position: [k + 0.5, 60], shapes: [Polygon.box(1, 0.25, { filter: { mask: 0 } })] }));
  space.addConstraint(new SoftUserPivot(uprev, link, k === 0 ? [0, 0] : [0.5, 0], [-0.5, 0]));
  uprev = link;
}
for (let i = 0; i < 400; i++) space.step(1 / 60);
`;

/** "callee into caller" pairs the trace reports. */
function inlinedPairs(trace: string): Set<string> {
  const pairs = new Set<string>();
  for (const m of trace.matchAll(/Inlining .*?<SharedFunctionInfo (\w+)>.*? into .*?<SharedFunctionInfo (\w+)>/g)) pairs.add(`${m[1]} into ${m[2]}`);
  return pairs;
}

/**
 * `callee` is inlined into `caller`, or into a function that has `caller` inlined (V8 may inline a
 * pass into its driver, and then reports the part inlined into the driver's code).
 */
function inlinedWithin(pairs: Set<string>, callee: string, caller: string): boolean {
  const hosts = new Set([caller]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of pairs) {
      const [c, into] = p.split(' into ') as [string, string];
      if (hosts.has(c) && !hosts.has(into)) {
        hosts.add(into);
        grew = true;
      }
    }
  }
  return [...hosts].some((h) => pairs.has(`${callee} into ${h}`));
}

describe('shared constraint parts', () => {
  it('are inlined into the solvers that call them', () => {
    transpileTree(srcDir);
    writeFileSync(join(outDir, 'package.json'), '{"type":"module"}');
    writeFileSync(join(outDir, 'driver.js'), DRIVER);
    const run = spawnSync(process.execPath, ['--trace-turbo-inlining', '--no-concurrent-recompilation', 'driver.js'], { cwd: outDir, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    expect(run.status, run.stderr).toBe(0);
    const pairs = inlinedPairs(run.stdout);
    // the contact solver's passes, the joint batch's stiff loop and position pass, its pass dispatch,
    // the user batch's pass (user-kernels.ts: soft rows with a force limit) and its soft rows' compliance
    for (const pair of ['softUpdate into pass', 'clamp into pass', 'contactRowInverse into prepare', 'inverseDet2 into solveStiff', 'inverseDet2 into position', 'limitTurn into position', 'turnBody into position', 'isRigid into pass', 'softRhs into pass', 'referenceMass into poseCompliance', 'normClampFactor into pass', 'inverse2Off into pass']) {
      const [callee, caller] = pair.split(' into ') as [string, string];
      expect(inlinedWithin(pairs, callee, caller), `expected V8 to inline ${pair}`).toBe(true);
    }
  }, 60_000);
});
