import type { DebugDraw } from '@fulcrum/physics';

/** Where world metres land on the canvas: `scale` px per metre, world origin at (originX, originY) px. */
export interface Viewport {
  scale: number;
  originX: number;
  originY: number;
}

function css(color: number, alpha = 1): string {
  const r = (color >> 16) & 0xff;
  const g = (color >> 8) & 0xff;
  const b = color & 0xff;
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

/**
 * A Canvas2D implementation of the engine's `DebugDraw` sink. The world is y-up metres;
 * the canvas is y-down pixels, so y is flipped around `originY`.
 */
export class CanvasDebugDraw implements DebugDraw {
  readonly ctx: CanvasRenderingContext2D;
  view: Viewport;

  constructor(ctx: CanvasRenderingContext2D, view: Viewport) {
    this.ctx = ctx;
    this.view = view;
  }

  private sx(x: number): number {
    return this.view.originX + x * this.view.scale;
  }

  private sy(y: number): number {
    return this.view.originY - y * this.view.scale;
  }

  drawPolygon(vertices: ArrayLike<number>, count: number, color: number): void {
    if (count < 2) return;
    const { ctx } = this;
    ctx.beginPath();
    ctx.moveTo(this.sx(vertices[0]), this.sy(vertices[1]));
    for (let i = 1; i < count; i++) {
      ctx.lineTo(this.sx(vertices[2 * i]), this.sy(vertices[2 * i + 1]));
    }
    ctx.closePath();
    ctx.fillStyle = css(color, 0.35);
    ctx.fill();
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = css(color);
    ctx.stroke();
  }

  drawCircle(x: number, y: number, radius: number, angle: number, color: number): void {
    const { ctx } = this;
    const cx = this.sx(x);
    const cy = this.sy(y);
    ctx.beginPath();
    ctx.arc(cx, cy, radius * this.view.scale, 0, Math.PI * 2);
    ctx.fillStyle = css(color, 0.35);
    ctx.fill();
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = css(color);
    ctx.stroke();
    // Radius line, so rotation is visible.
    ctx.beginPath();
    ctx.moveTo(cx, cy);
    ctx.lineTo(this.sx(x + radius * Math.cos(angle)), this.sy(y + radius * Math.sin(angle)));
    ctx.stroke();
  }

  drawSegment(x1: number, y1: number, x2: number, y2: number, color: number): void {
    const { ctx } = this;
    ctx.beginPath();
    ctx.moveTo(this.sx(x1), this.sy(y1));
    ctx.lineTo(this.sx(x2), this.sy(y2));
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = css(color);
    ctx.stroke();
  }

  drawPoint(x: number, y: number, size: number, color: number): void {
    const s = Math.max(2, size * this.view.scale);
    this.ctx.fillStyle = css(color);
    this.ctx.fillRect(this.sx(x) - s / 2, this.sy(y) - s / 2, s, s);
  }
}
