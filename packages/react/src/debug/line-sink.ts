/**
 * LineSink: a DebugDraw sink that turns the engine's drawing calls into line segments in
 * typed arrays (x, y, z positions and r, g, b colours per vertex), for one THREE.LineSegments.
 * The arrays are reused frame after frame and only grow (doubling) when a frame needs more, so
 * a steady scene allocates nothing per frame.
 */
import type { DebugDraw } from '@fulcrum/physics';

/** Segments per full circle. */
const CIRCLE_SEGMENTS = 24;
const COS = new Float64Array(CIRCLE_SEGMENTS + 1);
const SIN = new Float64Array(CIRCLE_SEGMENTS + 1);
for (let i = 0; i <= CIRCLE_SEGMENTS; i++) {
  COS[i] = Math.cos((2 * Math.PI * i) / CIRCLE_SEGMENTS);
  SIN[i] = Math.sin((2 * Math.PI * i) / CIRCLE_SEGMENTS);
}

export class LineSink implements DebugDraw {
  positions: Float32Array;
  colors: Float32Array;
  /** Vertices written this frame (two per segment). */
  count = 0;
  /** True when the arrays were replaced since `resized` was last cleared. */
  resized = true;
  private r = 1;
  private g = 1;
  private b = 1;
  private lastColor = -1;

  constructor(initialVertices = 1024) {
    this.positions = new Float32Array(3 * initialVertices);
    this.colors = new Float32Array(3 * initialVertices);
  }

  /** Start a frame. */
  begin(): void {
    this.count = 0;
  }

  /** Capacity in vertices. */
  get capacity(): number {
    return this.positions.length / 3;
  }

  segment(x1: number, y1: number, x2: number, y2: number, color: number): void {
    if (this.count + 2 > this.capacity) this.grow(this.count + 2);
    this.setColor(color);
    const p = this.positions;
    const c = this.colors;
    let o = 3 * this.count;
    p[o] = x1;
    p[o + 1] = y1;
    p[o + 2] = 0;
    c[o] = this.r;
    c[o + 1] = this.g;
    c[o + 2] = this.b;
    o += 3;
    p[o] = x2;
    p[o + 1] = y2;
    p[o + 2] = 0;
    c[o] = this.r;
    c[o + 1] = this.g;
    c[o + 2] = this.b;
    this.count += 2;
  }

  drawPolygon(vertices: ArrayLike<number>, count: number, color: number): void {
    for (let i = 0; i < count; i++) {
      const j = i + 1 < count ? i + 1 : 0;
      this.segment(vertices[2 * i]!, vertices[2 * i + 1]!, vertices[2 * j]!, vertices[2 * j + 1]!, color);
    }
  }

  drawCircle(x: number, y: number, radius: number, angle: number, color: number): void {
    for (let i = 0; i < CIRCLE_SEGMENTS; i++) {
      this.segment(x + radius * COS[i]!, y + radius * SIN[i]!, x + radius * COS[i + 1]!, y + radius * SIN[i + 1]!, color);
    }
    this.segment(x, y, x + radius * Math.cos(angle), y + radius * Math.sin(angle), color);
  }

  drawSegment(x1: number, y1: number, x2: number, y2: number, color: number): void {
    this.segment(x1, y1, x2, y2, color);
  }

  drawPoint(x: number, y: number, size: number, color: number): void {
    const h = 0.5 * size;
    this.segment(x - h, y - h, x + h, y + h, color);
    this.segment(x - h, y + h, x + h, y - h, color);
  }

  private setColor(color: number): void {
    if (color === this.lastColor) return;
    this.lastColor = color;
    this.r = ((color >> 16) & 0xff) / 255;
    this.g = ((color >> 8) & 0xff) / 255;
    this.b = (color & 0xff) / 255;
  }

  private grow(needed: number): void {
    let cap = this.capacity;
    while (cap < needed) cap *= 2;
    const p = new Float32Array(3 * cap);
    const c = new Float32Array(3 * cap);
    p.set(this.positions.subarray(0, 3 * this.count));
    c.set(this.colors.subarray(0, 3 * this.count));
    this.positions = p;
    this.colors = c;
    this.resized = true;
  }
}
