/**
 * Pose: the previous pose of one body, and the pose to draw between it and the current one.
 * A sleeping body is drawn once at its exact pose and then skipped, so a scene at rest writes
 * nothing to three.js. And drawAtWorldPose: the three.js side, so that a body is drawn at its
 * world pose whatever three.js groups it is inside.
 */
import type { Body } from '@fulcrum/physics';
import { Matrix4, type Object3D } from 'three';

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

// ------------------------------------------------------------------ drawing at the world pose

/**
 * Make `object` draw at the world pose held in its own position, quaternion and scale, whatever
 * its parents' transforms: a <Body> inside a translated, rotated or scaled <group> is still drawn
 * where the engine has it. Its local matrix becomes that pose seen from its parent (the inverse of
 * the parent's world matrix, times the pose), computed where three.js computes local matrices:
 * `updateMatrix`, which `updateMatrixWorld` calls after the parent's world matrix is up to date, so
 * a parent moved later in the frame (or a sleeping body under a moving parent) is right too.
 * Under an untransformed parent (the usual case) the matrix is three.js's own. Any parent
 * transform is compensated exactly, shear from a non-uniform scale included, because the matrix
 * is written whole rather than decomposed. Returns the function that undoes it.
 */
export function drawAtWorldPose(object: Object3D): () => void {
  object.updateMatrix = updateMatrixAtWorldPose;
  return () => {
    if (object.updateMatrix === updateMatrixAtWorldPose) delete (object as Partial<Pick<Object3D, 'updateMatrix'>>).updateMatrix;
  };
}

let parentInverse: Matrix4 | null = null;

function updateMatrixAtWorldPose(this: Object3D): void {
  this.matrix.compose(this.position, this.quaternion, this.scale);
  const parent = this.parent;
  if (parent !== null && !isIdentity(parent.matrixWorld.elements)) {
    parentInverse ??= new Matrix4();
    this.matrix.premultiply(parentInverse.copy(parent.matrixWorld).invert());
  }
  this.matrixWorldNeedsUpdate = true;
}

function isIdentity(e: ArrayLike<number>): boolean {
  for (let i = 0; i < 16; i++) if (e[i] !== (i % 5 === 0 ? 1 : 0)) return false;
  return true;
}
