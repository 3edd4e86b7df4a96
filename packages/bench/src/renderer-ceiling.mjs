/**
 * The host's renderer ceiling for the browser bench (browser-bench.mjs): the frame rate of a page
 * that draws the same number of instanced quads with three.js alone, no physics and no React, on
 * a canvas of the story's size with the story's WebGL options, every instance moved every frame
 * (as <InstancedBodies> writes every matrix). No page that draws that many bodies with three.js
 * can run faster on this host, so it says how much of the bench's frame rate is Fulcrum's to win:
 * in headless Chromium WebGL is SwiftShader, which rasterises on the CPU, on the same cores.
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openPage, serveStatic } from '@fulcrum/browser-testing';

/** The page: `count` quads of `size` in an orthographic view of the story's tray, turned and moved each frame. */
function pageSource({ count, width, height, antialias, size }) {
  return `<!doctype html><meta charset="utf-8"><body style="margin:0"><script type="module">
import * as THREE from './three.module.js';
const renderer = new THREE.WebGLRenderer({ antialias: ${antialias}, preserveDrawingBuffer: true });
renderer.setPixelRatio(1);
renderer.setSize(${width}, ${height});
document.body.appendChild(renderer.domElement);
const scene = new THREE.Scene();
const aspect = ${width} / ${height};
const camera = new THREE.OrthographicCamera(-12 * aspect, 12 * aspect, 12, -12, -10, 10);
const mesh = new THREE.InstancedMesh(new THREE.PlaneGeometry(${size}, ${size}), new THREE.MeshBasicMaterial({ color: 0x4a90d9 }), ${count});
scene.add(mesh);
const m = new THREE.Matrix4();
const times = [];
function frame(now) {
  times.push(now);
  for (let i = 0; i < ${count}; i++) {
    m.makeRotationZ(now / 1000 + i);
    m.setPosition((i % 100) * 0.42 - 21, Math.floor(i / 100) * 0.42 - 8, 0);
    mesh.setMatrixAt(i, m);
  }
  mesh.instanceMatrix.needsUpdate = true;
  renderer.render(scene, camera);
  requestAnimationFrame(frame);
}
requestAnimationFrame(frame);
globalThis.__ceiling = { times };
</script>`;
}

/**
 * Open the ceiling page in `browser`, let it run `warmupMs`, then time `sampleMs` of frames:
 * { framesPerSecond, frameIntervalMs: { median, p10, p90 }, frames, canvas, antialias }.
 */
export async function measureRendererCeiling(browser, { count, width, height, antialias = true, size = 0.3, warmupMs = 1000, sampleMs = 3000, summary }) {
  const dir = mkdtempSync(join(tmpdir(), 'fulcrum-ceiling-'));
  let server = null;
  try {
    // three's ES build: the module and the core it imports, beside the page.
    const threeModule = fileURLToPath(import.meta.resolve('three'));
    copyFileSync(threeModule, join(dir, 'three.module.js'));
    copyFileSync(join(dirname(threeModule), 'three.core.js'), join(dir, 'three.core.js'));
    writeFileSync(join(dir, 'index.html'), pageSource({ count, width, height, antialias, size }));
    server = await serveStatic(dir);
    const opened = await openPage(browser, `${server.url}/index.html`);
    try {
      await opened.page.waitForTimeout(warmupMs);
      const from = await opened.page.evaluate(() => globalThis.__ceiling.times.length);
      await opened.page.waitForTimeout(sampleMs);
      const times = await opened.page.evaluate((k) => globalThis.__ceiling.times.slice(k), from);
      opened.assertNoErrors('renderer ceiling page');
      const intervals = times.slice(1).map((t, i) => t - times[i]);
      const span = times.length > 1 ? times[times.length - 1] - times[0] : NaN;
      return { bodies: count, canvas: `${width}×${height}`, antialias, frames: intervals.length, framesPerSecond: (1000 * intervals.length) / span, frameIntervalMs: summary(intervals) };
    } finally {
      await opened.close();
    }
  } finally {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
