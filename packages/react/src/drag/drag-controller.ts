/**
 * DragController: pointer dragging, in world coordinates. Pressing on a dynamic body attaches
 * a soft PivotJoint between a static anchor body and the grabbed point; moving sets the
 * joint's world anchor (a setter, so a sleeping island wakes); releasing removes both. The
 * joint is soft (a spring of `frequency` and `damping`) with a force limit, so a dragged body
 * still collides and swings naturally, as in every Nape / Box2D testbed.
 *
 * While dragging, the anchor body and the joint are in the space (`space.bodies` and
 * `space.constraints` show them). If the dragged body leaves the space, the drag ends.
 */
import { Body, PivotJoint } from '@fulcrum/physics';
import type { Space } from '@fulcrum/physics';
import type { PhysicsWorld } from '../core/physics-world.js';

export interface DragSettings {
  /** Spring frequency of the drag joint, Hz (default 5). */
  frequency?: number;
  /** Damping ratio (default 0.7). */
  damping?: number;
  /** Force limit, N (default: 1000 × the body's mass). */
  maxForce?: number;
  /** Which bodies may be dragged (default: every dynamic body). */
  filter?: (body: Body) => boolean;
}

export class DragController {
  private anchor: Body | null = null;
  private joint: PivotJoint | null = null;
  private body: Body | null = null;
  private space: Space | null = null;
  private unwatch: (() => void) | null = null;

  /**
   * `onRelease` is called with the body whenever a drag ends, however it ends: `release()`, a new
   * `grab()`, or the body leaving the space.
   */
  constructor(
    private readonly world: PhysicsWorld,
    private readonly settings: { readonly current: DragSettings },
    private readonly onRelease?: (body: Body) => void,
  ) {}

  /** The body being dragged, or null. */
  get dragging(): Body | null {
    return this.body;
  }

  /** The drag joint while dragging (for tests and custom pointer handling). */
  get dragJoint(): PivotJoint | null {
    return this.joint;
  }

  /** Press at world point (x, y): grab the topmost draggable body there. */
  grab(x: number, y: number): Body | null {
    this.release();
    const space = this.world.space;
    const s = this.settings.current;
    const hits = space.queryPoint([x, y]);
    let body: Body | null = null;
    // Shapes come sorted by id: the last one was created last, and is drawn on top.
    for (let i = hits.length - 1; i >= 0 && body === null; i--) {
      const b = hits[i]!.body as Body | null;
      if (b && b.isDynamic && (s.filter ? s.filter(b) : true)) body = b;
    }
    if (body === null) return null;
    const anchor = new Body({ type: 'static' });
    const joint = new PivotJoint({
      body1: anchor,
      body2: body,
      anchor1: [x, y],
      anchor2: body.worldPointToLocal([x, y]),
      stiff: false,
      frequency: s.frequency ?? 5,
      damping: s.damping ?? 0.7,
      maxForce: s.maxForce ?? 1000 * body.mass,
    });
    space.addBody(anchor);
    space.addConstraint(joint);
    this.anchor = anchor;
    this.joint = joint;
    this.body = body;
    this.space = space;
    this.unwatch = this.world.watchBodies(() => {
      if (this.body && this.body.space !== this.space) this.release();
    });
    this.world.requestFrame();
    return body;
  }

  /** Move the pointer to world point (x, y). */
  move(x: number, y: number): void {
    if (this.joint === null) return;
    this.joint.anchor1 = [x, y];
    this.world.requestFrame();
  }

  /** Let go. Idempotent. */
  release(): void {
    this.unwatch?.();
    this.unwatch = null;
    const body = this.body;
    const space = this.space;
    if (space !== null) {
      if (this.joint && this.joint.space === space) space.removeConstraint(this.joint);
      if (this.anchor && this.anchor.space === space) space.removeBody(this.anchor);
      this.world.requestFrame();
    }
    this.anchor = null;
    this.joint = null;
    this.body = null;
    this.space = null;
    if (body !== null) this.onRelease?.(body);
  }
}
