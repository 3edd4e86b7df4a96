/**
 * Pose: the previous pose of one body, and the pose to draw between it and the current one.
 * A sleeping body is drawn once at its exact pose and then skipped, so a scene at rest writes
 * nothing to three.js.
 */
import type { Body } from '@fulcrum/physics';

export class Pose {
  /** Previous pose (before the frame's last step). */
  px = 0;
  py = 0;
  pa = 0;
  /** The pose to draw, set by `compute`. */
  x = 0;
  y = 0;
  angle = 0;
  private settled = false;

  /** Remember the body's pose as the previous one. */
  snapshot(b: Body): void {
    this.px = b.x;
    this.py = b.y;
    this.pa = b.rotation;
  }

  /** The body was teleported or just appeared: draw it where it is, with no smear. */
  snap(b: Body): void {
    this.snapshot(b);
    this.settled = false;
  }

  /** Draw again at the next write even if asleep (the drawing target changed). */
  redraw(): void {
    this.settled = false;
  }

  /** Compute the pose to draw; false when there is nothing new to draw. */
  compute(b: Body, alpha: number): boolean {
    if (b.isSleeping) {
      if (this.settled) return false;
      this.settled = true;
      this.x = b.x;
      this.y = b.y;
      this.angle = b.rotation;
      return true;
    }
    this.settled = false;
    this.x = this.px + alpha * (b.x - this.px);
    this.y = this.py + alpha * (b.y - this.py);
    this.angle = this.pa + alpha * (b.rotation - this.pa);
    return true;
  }
}
