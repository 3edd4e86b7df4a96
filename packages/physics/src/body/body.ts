/**
 * Body: the public handle of a rigid body. Its pose, velocity and rest time are nine numbers in
 * a typed array (state-layout.ts), its space's while it is in one; the rest are plain fields. The
 * space copies awake bodies into typed solver arrays for the duration of a step (see
 * space/solver-bodies.ts) and writes the result back, so a Body stays pleasant to use while
 * the hot loop stays scalar and allocation-free.
 *
 * `position` is the body origin (the frame shapes are defined in); the centre of mass is
 * derived from the shapes (`localCenter`). Every setter validates first, then applies, then
 * goes through `invalidate()` so that a sleeping island wakes (Nape semantics).
 */
import type { Vec2, Vec2Like, Vec3 } from '../math/vec2.js';
import type { MassData, Shape, ShapeOwner } from '../shape/shape.js';
import type { Contact } from '../contact/contact.js';
import {
  checkBoolean,
  checkFinite,
  checkNonNegative,
  checkNonNegativeOrInfinity,
  checkPositive,
  checkOptionKeys,
  checkVec2,
  fail,
  FulcrumInputError,
  optionKeys,
} from '../util/validate.js';
import {
  ownState, STATE_ANGLE, STATE_ANGULAR_DRAG, STATE_C, STATE_FX, STATE_FY, STATE_GRAVITY_SCALE, STATE_INV_I, STATE_INV_MASS, STATE_LCX, STATE_LCY,
  STATE_LINEAR_DRAG, STATE_MAX_EXTENT, STATE_MIN_EXTENT, STATE_S, STATE_SLEEP, STATE_TORQUE, STATE_VX, STATE_VY, STATE_W, STATE_Y,
} from './state-layout.js';

export type BodyType = 'dynamic' | 'static' | 'kinematic';

export interface BodyOptions {
  /**
   * 'dynamic' (moved by forces and contacts; the default), 'kinematic' (moved by its velocity
   * alone, pushes what it meets) or 'static' (never moves).
   */
  type?: BodyType;
  /** Body origin, world space. Default (0, 0). */
  position?: Vec2Like;
  /** Radians, counter-clockwise. Default 0. */
  rotation?: number;
  /** Linear velocity of the centre of mass. Default (0, 0). */
  velocity?: Vec2Like;
  /** Angular velocity, radians per second, counter-clockwise. Default 0. */
  angularVel?: number;
  /** Persistent force applied at the centre of mass every step (Nape semantics). */
  force?: Vec2Like;
  /** Persistent torque applied every step. */
  torque?: number;
  /** Explicit mass (kg). Omit to derive it from the shapes' density. */
  mass?: number;
  /** Explicit rotational inertia about the centre of mass. Omit to derive it. */
  inertia?: number;
  /**
   * false: nothing in the simulation changes the body's linear velocity. Gravity and forces do not
   * act on it, and contacts and joints treat it as having infinite mass (Nape's allowMovement). A
   * velocity it has or is given still moves it: give it velocity 0 to hold it in place. Default true.
   */
  allowMovement?: boolean;
  /**
   * false: nothing in the simulation changes the body's angular velocity (infinite inertia for
   * torques, contacts and joints; Nape's allowRotation). An angularVel it is given still turns it.
   */
  allowRotation?: boolean;
  /**
   * true: the space's maxRotationPerSubstep does not slow this body's spin. For round bodies whose
   * contacts do not depend on their rotation (wheels, balls), which may spin faster than the cap
   * allows (Box2D v3's allowFastRotation). A free ball (only circles centred on its centre of mass,
   * and no constraint) is never capped, whatever this says (see rotationCapped). Default false.
   */
  allowFastRotation?: boolean;
  /**
   * false: the body never falls asleep, and neither does any island it is in (a player, whose
   * input the space cannot see). Default true. The space's allowSleep switches sleep off for all.
   */
  allowSleep?: boolean;
  /**
   * true: continuous collision for this dynamic body against other dynamic bodies too (Nape's
   * isBullet); every dynamic body has it against static and kinematic ones. Default false.
   */
  isBullet?: boolean;
  /** true: no continuous collision for this body, even against static ones (Nape's disableCCD). Default false. */
  disableCCD?: boolean;
  /**
   * The space raises a contactForce event for a contact of this body whose normal impulse over a
   * step exceeds this force (N) times dt (the lower of the two bodies' thresholds applies). Default
   * Infinity: never.
   */
  contactForceThreshold?: number;
  /** Linear drag, 1/s: v ← v / (1 + h·drag) each substep. Default 0. */
  linearDrag?: number;
  /** Angular drag, 1/s. Default 0. */
  angularDrag?: number;
  /** Multiplies the space's gravity for this body. Default 1. */
  gravityScale?: number;
  /** The body's shapes (or add them later with addShape). */
  shapes?: readonly Shape[];
  /** Anything of yours, kept on the body (`body.userData`). */
  userData?: unknown;
}

/** What a Body needs from the space it is in; implemented by Space. */
/** Every key of BodyOptions: a misspelt one is an error (checkOptionKeys). */
const BODY_OPTION_KEYS = optionKeys<BodyOptions>()(['type', 'position', 'rotation', 'velocity', 'angularVel', 'force', 'torque', 'mass', 'inertia', 'allowMovement', 'allowRotation', 'allowFastRotation', 'allowSleep', 'isBullet', 'disableCCD', 'contactForceThreshold', 'linearDrag', 'angularDrag', 'gravityScale', 'shapes', 'userData']);

/** Box2D's, planck's and Rapier's names for body options, for the hint of a misspelt-option error. */
const OTHER_ENGINES_NAMES: Readonly<Record<string, string>> = {
  angle: 'rotation',
  linearVelocity: 'velocity',
  angularVelocity: 'angularVel',
  linearDamping: 'linearDrag',
  angularDamping: 'angularDrag',
  bullet: 'isBullet',
  fixedRotation: 'allowRotation',
};

export interface BodySpaceLink {
  _assertUnlocked(what: string): void;
  /** Wake what the body touches and request a frame. */
  _invalidateBody(body: Body): void;
  /** The body was moved by hand: refresh shapes and broadphase, wake neighbours. */
  _bodyTransformChanged(body: Body): void;
  _shapeAdded(body: Body, shape: Shape): void;
  _shapeRemoved(body: Body, shape: Shape): void;
  _shapeChanged(body: Body, shape: Shape, geometry: boolean): void;
  /** Put the body's island to sleep now (Body.sleep). */
  _sleepBody(body: Body): void;
  /** The body's type changed (what continuous collision sweeps against may have). */
  _bodyTypeChanged(body: Body): void;
  /** A contact's material may change now: between steps, or inside the pre-solve callback. */
  _assertContactMutable(what: string): void;
}

/** An island of bodies asleep together. Waking any member wakes all of them. */
export interface SleepingIsland {
  bodies: Body[];
}

let nextBodyId = 1;

const BODY_TYPES: readonly BodyType[] = ['dynamic', 'static', 'kinematic'];

export class Body implements ShapeOwner {
  /** Creation-order id; used wherever an order is needed (never object identity). */
  readonly id: number = nextBodyId++;

  // --- state (internal fields are read by the space and solver) ---
  /** @internal */ _type: BodyType = 'dynamic';
  /**
   * @internal The array of the body's numbers (its state and the settings the step reads) and where
   * in it they start (state-layout.ts): its own until it joins a space, then the space's
   * (BodyStates). Read and written through the accessors below (_x … _w, _sleepTime, _fx …
   * _minExtent).
   */
  _st: Float64Array = ownState();
  /** @internal */ _sa = 0;
  /** @internal */ get _x(): number {
    return this._st[this._sa]!;
  }
  set _x(v: number) {
    this._st[this._sa] = v;
  }
  /** @internal */ get _y(): number {
    return this._st[this._sa + STATE_Y]!;
  }
  set _y(v: number) {
    this._st[this._sa + STATE_Y] = v;
  }
  /** @internal */ get _angle(): number {
    return this._st[this._sa + STATE_ANGLE]!;
  }
  set _angle(v: number) {
    this._st[this._sa + STATE_ANGLE] = v;
  }
  /** @internal cos/sin of _angle, kept in sync by setTransform */
  get _c(): number {
    return this._st[this._sa + STATE_C]!;
  }
  set _c(v: number) {
    this._st[this._sa + STATE_C] = v;
  }
  /** @internal */ get _s(): number {
    return this._st[this._sa + STATE_S]!;
  }
  set _s(v: number) {
    this._st[this._sa + STATE_S] = v;
  }
  /** @internal */ get _vx(): number {
    return this._st[this._sa + STATE_VX]!;
  }
  set _vx(v: number) {
    this._st[this._sa + STATE_VX] = v;
  }
  /** @internal */ get _vy(): number {
    return this._st[this._sa + STATE_VY]!;
  }
  set _vy(v: number) {
    this._st[this._sa + STATE_VY] = v;
  }
  /** @internal */ get _w(): number {
    return this._st[this._sa + STATE_W]!;
  }
  set _w(v: number) {
    this._st[this._sa + STATE_W] = v;
  }
  // (The settings the step reads are in the same array, after the state: state-layout.ts.)
  /** @internal */ get _fx(): number {
    return this._st[this._sa + STATE_FX]!;
  }
  set _fx(v: number) {
    this._st[this._sa + STATE_FX] = v;
  }
  /** @internal */ get _fy(): number {
    return this._st[this._sa + STATE_FY]!;
  }
  set _fy(v: number) {
    this._st[this._sa + STATE_FY] = v;
  }
  /** @internal */ get _torque(): number {
    return this._st[this._sa + STATE_TORQUE]!;
  }
  set _torque(v: number) {
    this._st[this._sa + STATE_TORQUE] = v;
  }
  /** @internal */ get _linearDrag(): number {
    return this._st[this._sa + STATE_LINEAR_DRAG]!;
  }
  set _linearDrag(v: number) {
    this._st[this._sa + STATE_LINEAR_DRAG] = v;
  }
  /** @internal */ get _angularDrag(): number {
    return this._st[this._sa + STATE_ANGULAR_DRAG]!;
  }
  set _angularDrag(v: number) {
    this._st[this._sa + STATE_ANGULAR_DRAG] = v;
  }
  /** @internal */ get _gravityScale(): number {
    return this._st[this._sa + STATE_GRAVITY_SCALE]!;
  }
  set _gravityScale(v: number) {
    this._st[this._sa + STATE_GRAVITY_SCALE] = v;
  }
  /** @internal */ _allowMovement = true;
  /** @internal */ _allowRotation = true;
  /** @internal */ _allowFastRotation = false;
  /** @internal */ _allowSleep = true;
  /** @internal */ _contactForceThreshold = Infinity;
  /** @internal */ _isBullet = false;
  /** @internal */ _disableCCD = false;
  /** @internal Only circles centred on the centre of mass: no contact of it depends on its rotation. */
  _round = false;

  // --- mass ---
  /** @internal centre of mass, body-local */
  get _lcx(): number {
    return this._st[this._sa + STATE_LCX]!;
  }
  set _lcx(v: number) {
    this._st[this._sa + STATE_LCX] = v;
  }
  /** @internal */ get _lcy(): number {
    return this._st[this._sa + STATE_LCY]!;
  }
  set _lcy(v: number) {
    this._st[this._sa + STATE_LCY] = v;
  }
  /** @internal */ _mass = 0;
  /** @internal The body moved since its inert shapes' world cache was refreshed (space._flushInert). */
  _inertStale = false;
  /**
   * @internal How many of its shapes in a space pair with something (not inert): kept by the
   * space's contacts (addProxy, removeProxy, shapeFilterChanged). Write back refreshes the shapes
   * of a body with none only to mark them stale, once.
   */
  _pairingShapes = 0;
  /** @internal rotational inertia about the centre of mass */
  _inertia = 0;
  /** @internal */ get _invMass(): number {
    return this._st[this._sa + STATE_INV_MASS]!;
  }
  set _invMass(v: number) {
    this._st[this._sa + STATE_INV_MASS] = v;
  }
  /** @internal */ get _invInertia(): number {
    return this._st[this._sa + STATE_INV_I]!;
  }
  set _invInertia(v: number) {
    this._st[this._sa + STATE_INV_I] = v;
  }
  /** @internal */ _explicitMass: number | null = null;
  /** @internal */ _explicitInertia: number | null = null;
  /** @internal half-size of the body as seen from its centre of mass (sleep test) */
  get _maxExtent(): number {
    return this._st[this._sa + STATE_MAX_EXTENT]!;
  }
  set _maxExtent(v: number) {
    this._st[this._sa + STATE_MAX_EXTENT] = v;
  }
  /** @internal the thinnest of its shapes (Shape.minExtent; Infinity: none): continuous collision's test */
  get _minExtent(): number {
    return this._st[this._sa + STATE_MIN_EXTENT]!;
  }
  set _minExtent(v: number) {
    this._st[this._sa + STATE_MIN_EXTENT] = v;
  }

  // --- membership ---
  /** @internal */ _space: BodySpaceLink | null = null;
  /** @internal */ readonly _shapes: Shape[] = [];
  /** @internal constraints attached to this body that are in a space */
  readonly _constraints: unknown[] = [];
  /** @internal contacts touching this body's shapes (owned by the space) */
  readonly _contacts: unknown[] = [];

  // --- sleeping ---
  /** @internal */ _sleeping = false;
  /** @internal seconds the body has been at rest (in the state: write back keeps it) */
  get _sleepTime(): number {
    return this._st[this._sa + STATE_SLEEP]!;
  }
  set _sleepTime(v: number) {
    this._st[this._sa + STATE_SLEEP] = v;
  }
  /** @internal Scratch index for Space.countAwakeIslands (meaningless outside that call). */
  _islandIndex = -1;
  /** @internal */ _island: SleepingIsland | null = null;
  /** @internal index into the solver arrays during a step, −1 otherwise */
  _solverIndex = -1;
  /**
   * @internal The body's slot in its space, −1 outside one: dense, and reused after a removal, so
   * that typed arrays can be indexed by it (the contact store names a contact's bodies by it).
   */
  _slot = -1;
  /** @internal union-find parent during island building */
  _islandParent = -1;

  userData: unknown = undefined;

  constructor(options: BodyOptions = {}) {
    if (options === null || typeof options !== 'object') fail('Body', 'options', options, 'must be an object');
    checkOptionKeys('Body', options, BODY_OPTION_KEYS, '', OTHER_ENGINES_NAMES);
    const o = options;
    // Validate everything before assigning anything.
    const type = o.type !== undefined ? checkBodyType(o.type) : 'dynamic';
    const pos = o.position !== undefined ? checkVec2('Body', 'position', o.position) : { x: 0, y: 0 };
    const rot = o.rotation !== undefined ? checkFinite('Body', 'rotation', o.rotation) : 0;
    const vel = o.velocity !== undefined ? checkVec2('Body', 'velocity', o.velocity) : { x: 0, y: 0 };
    const w = o.angularVel !== undefined ? checkFinite('Body', 'angularVel', o.angularVel) : 0;
    const force = o.force !== undefined ? checkVec2('Body', 'force', o.force) : { x: 0, y: 0 };
    const torque = o.torque !== undefined ? checkFinite('Body', 'torque', o.torque) : 0;
    const mass = o.mass !== undefined ? checkPositive('Body', 'mass', o.mass) : null;
    const inertia = o.inertia !== undefined ? checkPositive('Body', 'inertia', o.inertia) : null;
    const allowMovement = o.allowMovement !== undefined ? checkBoolean('Body', 'allowMovement', o.allowMovement) : true;
    const allowRotation = o.allowRotation !== undefined ? checkBoolean('Body', 'allowRotation', o.allowRotation) : true;
    const allowFastRotation = o.allowFastRotation !== undefined ? checkBoolean('Body', 'allowFastRotation', o.allowFastRotation) : false;
    const allowSleep = o.allowSleep !== undefined ? checkBoolean('Body', 'allowSleep', o.allowSleep) : true;
    const isBullet = o.isBullet !== undefined ? checkBoolean('Body', 'isBullet', o.isBullet) : false;
    const disableCCD = o.disableCCD !== undefined ? checkBoolean('Body', 'disableCCD', o.disableCCD) : false;
    const contactForceThreshold = o.contactForceThreshold !== undefined ? checkNonNegativeOrInfinity('Body', 'contactForceThreshold', o.contactForceThreshold) : Infinity;
    const linearDrag = o.linearDrag !== undefined ? checkNonNegative('Body', 'linearDrag', o.linearDrag) : 0;
    const angularDrag = o.angularDrag !== undefined ? checkNonNegative('Body', 'angularDrag', o.angularDrag) : 0;
    const gravityScale = o.gravityScale !== undefined ? checkFinite('Body', 'gravityScale', o.gravityScale) : 1;
    const shapes = o.shapes ?? [];
    if (!Array.isArray(shapes)) fail('Body', 'shapes', shapes, 'must be an array of shapes');
    shapes.forEach((s, i) => checkShapeAttachable(s, `shapes[${i}]`));
    if (new Set(shapes).size !== shapes.length) fail('Body', 'shapes', '[...]', 'must not list the same shape twice');
    if (type === 'static' && (vel.x !== 0 || vel.y !== 0)) fail('Body', 'velocity', o.velocity, 'must be zero on a static body');
    if (type === 'static' && w !== 0) fail('Body', 'angularVel', w, 'must be zero on a static body');

    this._type = type;
    this._x = pos.x;
    this._y = pos.y;
    this._angle = rot;
    this._c = Math.cos(rot);
    this._s = Math.sin(rot);
    this._vx = vel.x;
    this._vy = vel.y;
    this._w = w;
    this._fx = force.x;
    this._fy = force.y;
    this._torque = torque;
    this._explicitMass = mass;
    this._explicitInertia = inertia;
    this._allowMovement = allowMovement;
    this._allowRotation = allowRotation;
    this._allowFastRotation = allowFastRotation;
    this._allowSleep = allowSleep;
    this._contactForceThreshold = contactForceThreshold;
    this._isBullet = isBullet;
    this._disableCCD = disableCCD;
    this._linearDrag = linearDrag;
    this._angularDrag = angularDrag;
    this._gravityScale = gravityScale;
    this.userData = o.userData;
    for (const s of shapes) {
      s.body = this;
      this._shapes.push(s);
    }
    this._updateMass();
  }

  // ------------------------------------------------------------------ type & flags

  get type(): BodyType {
    return this._type;
  }
  set type(t: BodyType) {
    const type = checkBodyType(t);
    if (type === this._type) return;
    this._space?._assertUnlocked('Body.type');
    this._type = type;
    if (type === 'static') {
      this._vx = this._vy = this._w = 0;
    }
    this._updateMass();
    this._space?._bodyTypeChanged(this);
    this._invalidate();
  }
  get isDynamic(): boolean {
    return this._type === 'dynamic';
  }
  get isStatic(): boolean {
    return this._type === 'static';
  }
  get isKinematic(): boolean {
    return this._type === 'kinematic';
  }

  /** True while the body's island is asleep. Static bodies never sleep. */
  get isSleeping(): boolean {
    return this._sleeping;
  }

  /** The space this body is in, or null. */
  get space(): unknown {
    return this._space;
  }

  // ------------------------------------------------------------------ transform

  get position(): Vec2 {
    return { x: this._x, y: this._y };
  }
  set position(v: Vec2Like) {
    const p = checkVec2('Body', 'position', v);
    this._space?._assertUnlocked('Body.position');
    this._x = p.x;
    this._y = p.y;
    this._transformChanged();
  }
  /** Origin x without allocating. */
  get x(): number {
    return this._x;
  }
  /** Origin y without allocating. */
  get y(): number {
    return this._y;
  }

  get rotation(): number {
    return this._angle;
  }
  set rotation(a: number) {
    const r = checkFinite('Body', 'rotation', a);
    this._space?._assertUnlocked('Body.rotation');
    this._setAngle(r);
    this._transformChanged();
  }

  /** Centre of mass in world space. */
  get worldCenter(): Vec2 {
    return { x: this._x + this._c * this._lcx - this._s * this._lcy, y: this._y + this._s * this._lcx + this._c * this._lcy };
  }
  /** Centre of mass in body space. */
  get localCenter(): Vec2 {
    return { x: this._lcx, y: this._lcy };
  }

  // ------------------------------------------------------------------ velocity

  get velocity(): Vec2 {
    return { x: this._vx, y: this._vy };
  }
  set velocity(v: Vec2Like) {
    const p = checkVec2('Body', 'velocity', v);
    this._space?._assertUnlocked('Body.velocity');
    if (this._type === 'static') {
      if (p.x !== 0 || p.y !== 0) fail('Body', 'velocity', v, 'must be zero on a static body');
      return;
    }
    this._vx = p.x;
    this._vy = p.y;
    this._invalidate();
  }

  get angularVel(): number {
    return this._w;
  }
  set angularVel(w: number) {
    const v = checkFinite('Body', 'angularVel', w);
    this._space?._assertUnlocked('Body.angularVel');
    if (this._type === 'static') {
      if (v !== 0) fail('Body', 'angularVel', w, 'must be zero on a static body');
      return;
    }
    this._w = v;
    this._invalidate();
  }

  get force(): Vec2 {
    return { x: this._fx, y: this._fy };
  }
  set force(v: Vec2Like) {
    const f = checkVec2('Body', 'force', v);
    this._space?._assertUnlocked('Body.force');
    this._fx = f.x;
    this._fy = f.y;
    this._invalidate();
  }

  get torque(): number {
    return this._torque;
  }
  set torque(t: number) {
    this._space?._assertUnlocked('Body.torque');
    this._torque = checkFinite('Body', 'torque', t);
    this._invalidate();
  }

  get linearDrag(): number {
    return this._linearDrag;
  }
  set linearDrag(d: number) {
    this._space?._assertUnlocked('Body.linearDrag');
    this._linearDrag = checkNonNegative('Body', 'linearDrag', d);
    this._invalidate();
  }
  get angularDrag(): number {
    return this._angularDrag;
  }
  set angularDrag(d: number) {
    this._space?._assertUnlocked('Body.angularDrag');
    this._angularDrag = checkNonNegative('Body', 'angularDrag', d);
    this._invalidate();
  }
  get gravityScale(): number {
    return this._gravityScale;
  }
  set gravityScale(g: number) {
    this._space?._assertUnlocked('Body.gravityScale');
    this._gravityScale = checkFinite('Body', 'gravityScale', g);
    this._invalidate();
  }

  get allowMovement(): boolean {
    return this._allowMovement;
  }
  set allowMovement(b: boolean) {
    this._space?._assertUnlocked('Body.allowMovement');
    this._allowMovement = checkBoolean('Body', 'allowMovement', b);
    this._updateMass();
    this._invalidate();
  }
  get allowRotation(): boolean {
    return this._allowRotation;
  }
  set allowRotation(b: boolean) {
    this._space?._assertUnlocked('Body.allowRotation');
    this._allowRotation = checkBoolean('Body', 'allowRotation', b);
    this._updateMass();
    this._invalidate();
  }
  /**
   * Whether the space's maxRotationPerSubstep slows this body's spin: a dynamic body that can turn,
   * without allowFastRotation, unless it is a free ball (only circles centred on its centre of
   * mass, and no constraint), which nothing it touches depends on the rotation of.
   */
  get rotationCapped(): boolean {
    return this._invInertia > 0 && !this._allowFastRotation && !(this._round && this._constraints.length === 0);
  }
  /** See BodyOptions.allowFastRotation. */
  get allowFastRotation(): boolean {
    return this._allowFastRotation;
  }
  set allowFastRotation(b: boolean) {
    this._space?._assertUnlocked('Body.allowFastRotation');
    this._allowFastRotation = checkBoolean('Body', 'allowFastRotation', b);
    this._invalidate();
  }

  // ------------------------------------------------------------------ sleep

  /** See BodyOptions.allowSleep. Setting it false wakes the body's island. */
  get allowSleep(): boolean {
    return this._allowSleep;
  }
  set allowSleep(b: boolean) {
    const v = checkBoolean('Body', 'allowSleep', b);
    this._space?._assertUnlocked('Body.allowSleep');
    this._allowSleep = v;
    this._invalidate();
  }

  /**
   * Wake the body's island now (its rest time starts again), as every setter does. Outside a
   * space it does nothing. Not from inside a step (a constraint hook).
   */
  wake(): void {
    this._space?._assertUnlocked('Body.wake');
    this._invalidate();
  }

  /**
   * Put the body's island to sleep now: every awake dynamic body linked to it by a touching contact
   * or an active constraint stops (velocity 0) and sleeps until something wakes it (a setter,
   * wake(), a body that starts touching it, a moving kinematic body it touches). A dynamic body in
   * a space only; not while any body of the island has allowSleep false, nor with the space's
   * allowSleep false (it would wake again at once); not from inside a step.
   */
  sleep(): void {
    if (this._space === null) throw new FulcrumInputError(`Body.sleep(): Body#${this.id} is not in a space`, { owner: 'Body', prop: 'sleep' });
    this._space._assertUnlocked('Body.sleep');
    if (this._type !== 'dynamic') throw new FulcrumInputError(`Body.sleep(): Body#${this.id} is ${this._type}, and only a dynamic body sleeps`, { owner: 'Body', prop: 'sleep' });
    this._space._sleepBody(this);
  }

  // ------------------------------------------------------------------ continuous collision

  /** See BodyOptions.isBullet. */
  get isBullet(): boolean {
    return this._isBullet;
  }
  set isBullet(b: boolean) {
    const v = checkBoolean('Body', 'isBullet', b);
    this._space?._assertUnlocked('Body.isBullet');
    this._isBullet = v;
    this._invalidate();
  }
  /** See BodyOptions.disableCCD. */
  get disableCCD(): boolean {
    return this._disableCCD;
  }
  set disableCCD(b: boolean) {
    const v = checkBoolean('Body', 'disableCCD', b);
    this._space?._assertUnlocked('Body.disableCCD');
    this._disableCCD = v;
    this._invalidate();
  }

  // ------------------------------------------------------------------ contacts

  /** See BodyOptions.contactForceThreshold (N; Infinity: never). */
  get contactForceThreshold(): number {
    return this._contactForceThreshold;
  }
  set contactForceThreshold(f: number) {
    const v = checkNonNegativeOrInfinity('Body', 'contactForceThreshold', f);
    this._space?._assertUnlocked('Body.contactForceThreshold');
    this._contactForceThreshold = v;
  }

  /**
   * The body's touching contacts (sensors' overlaps included), each a handle with its shapes,
   * normal and points (Contact). A fresh array; the handles are live.
   */
  get contacts(): Contact[] {
    const out: Contact[] = [];
    for (const c of this._contacts as Contact[]) if (c.touching) out.push(c);
    return out;
  }

  // ------------------------------------------------------------------ kinematic control

  /**
   * Set the velocities that bring the body to `position` and `rotation` in one step of `dt`
   * seconds (Nape's setVelocityFromTarget): v = (position − current)/dt, ω = (rotation −
   * current)/dt, rotation taken as given, not wrapped (from 3.1 to −3.1 it turns back through 0).
   * For a kinematic body, which then arrives exactly and pushes and carries what it touches on
   * the way, as a moved platform should; a teleport (setting position) carries nothing. A dynamic
   * body gets the same velocities, which gravity and contacts then change. Not a static body.
   */
  setVelocityFromTarget(position: Vec2Like, rotation: number, dt: number): void {
    const p = checkVec2('Body', 'setVelocityFromTarget(position)', position);
    const a = checkFinite('Body', 'setVelocityFromTarget(rotation)', rotation);
    if (typeof dt !== 'number' || !Number.isFinite(dt) || dt <= 0) fail('Body', 'setVelocityFromTarget(dt)', dt, 'must be a positive number of seconds');
    if (this._type === 'static') fail('Body', 'setVelocityFromTarget', `Body#${this.id}`, 'is static: give it type kinematic to move it');
    this._space?._assertUnlocked('Body.setVelocityFromTarget');
    // The solver moves the centre of mass by v·dt and turns the body about it by ω·dt: v is the
    // centre's, from where it is to where it will be with the body at the target pose.
    const lcx = this._lcx, lcy = this._lcy, c = Math.cos(a), s = Math.sin(a);
    const vx = (p.x + c * lcx - s * lcy - (this._x + this._c * lcx - this._s * lcy)) / dt;
    const vy = (p.y + s * lcx + c * lcy - (this._y + this._s * lcx + this._c * lcy)) / dt;
    const w = (a - this._angle) / dt;
    if (!Number.isFinite(vx) || !Number.isFinite(vy) || !Number.isFinite(w)) fail('Body', 'setVelocityFromTarget(dt)', dt, `is too small for the distance to the target: the velocity (${vx}, ${vy}, ${w}) is not finite`);
    this._vx = vx;
    this._vy = vy;
    this._w = w;
    this._invalidate();
  }

  // ------------------------------------------------------------------ mass

  /** Mass in kg: explicit if set, otherwise from the shapes' density (1 kg for a dynamic body without area). */
  get mass(): number {
    return this._mass;
  }
  set mass(m: number) {
    const v = checkPositive('Body', 'mass', m);
    this._space?._assertUnlocked('Body.mass');
    this._explicitMass = v;
    this._updateMass();
    this._invalidate();
  }
  /** Rotational inertia about the centre of mass. */
  get inertia(): number {
    return this._inertia;
  }
  set inertia(i: number) {
    const v = checkPositive('Body', 'inertia', i);
    this._space?._assertUnlocked('Body.inertia');
    this._explicitInertia = v;
    this._updateMass();
    this._invalidate();
  }
  /** Go back to deriving mass and inertia from the shapes. */
  useShapeMass(): void {
    this._space?._assertUnlocked('Body.useShapeMass');
    this._explicitMass = null;
    this._explicitInertia = null;
    this._updateMass();
    this._invalidate();
  }

  /** Nape's constraint hooks: inverse mass, 0 for static/kinematic bodies or allowMovement = false. */
  get constraintMass(): number {
    return this._invMass;
  }
  /** Nape's constraint hooks: inverse inertia, 0 for static/kinematic bodies or allowRotation = false. */
  get constraintInertia(): number {
    return this._invInertia;
  }
  /** Nape's constraint hooks: (vx, vy, ω). Kinematic bodies report their kinematic velocity. */
  get constraintVelocity(): Vec3 {
    return { x: this._vx, y: this._vy, z: this._w };
  }

  // ------------------------------------------------------------------ impulses

  /** Apply a linear impulse (N·s) at a world point (default: the centre of mass). Wakes the body. */
  applyImpulse(impulse: Vec2Like, worldPoint?: Vec2Like): void {
    const j = checkVec2('Body', 'applyImpulse(impulse)', impulse);
    const p = worldPoint !== undefined ? checkVec2('Body', 'applyImpulse(worldPoint)', worldPoint) : null;
    this._space?._assertUnlocked('Body.applyImpulse');
    if (this._type !== 'dynamic') return;
    this._vx += j.x * this._invMass;
    this._vy += j.y * this._invMass;
    if (p) {
      const c = this.worldCenter;
      this._w += this._invInertia * ((p.x - c.x) * j.y - (p.y - c.y) * j.x);
    }
    this._invalidate();
  }

  applyAngularImpulse(impulse: number): void {
    const j = checkFinite('Body', 'applyAngularImpulse(impulse)', impulse);
    this._space?._assertUnlocked('Body.applyAngularImpulse');
    if (this._type !== 'dynamic') return;
    this._w += j * this._invInertia;
    this._invalidate();
  }

  // ------------------------------------------------------------------ frames

  localPointToWorld(p: Vec2Like): Vec2 {
    const v = checkVec2('Body', 'localPointToWorld(point)', p);
    return { x: this._x + this._c * v.x - this._s * v.y, y: this._y + this._s * v.x + this._c * v.y };
  }
  worldPointToLocal(p: Vec2Like): Vec2 {
    const v = checkVec2('Body', 'worldPointToLocal(point)', p);
    const dx = v.x - this._x;
    const dy = v.y - this._y;
    return { x: this._c * dx + this._s * dy, y: -this._s * dx + this._c * dy };
  }
  localVectorToWorld(v: Vec2Like): Vec2 {
    const u = checkVec2('Body', 'localVectorToWorld(vector)', v);
    return { x: this._c * u.x - this._s * u.y, y: this._s * u.x + this._c * u.y };
  }
  worldVectorToLocal(v: Vec2Like): Vec2 {
    const u = checkVec2('Body', 'worldVectorToLocal(vector)', v);
    return { x: this._c * u.x + this._s * u.y, y: -this._s * u.x + this._c * u.y };
  }

  // ------------------------------------------------------------------ shapes

  get shapes(): readonly Shape[] {
    return this._shapes;
  }

  addShape(shape: Shape): this {
    checkShapeAttachable(shape, 'addShape(shape)');
    this._space?._assertUnlocked('Body.addShape');
    shape.body = this;
    this._shapes.push(shape);
    this._updateMass();
    this._space?._shapeAdded(this, shape);
    this._invalidate();
    return this;
  }

  removeShape(shape: Shape): this {
    const i = this._shapes.indexOf(shape);
    if (i < 0) fail('Body', 'removeShape(shape)', `${shape?.constructor?.name ?? typeof shape}#${shape?.id}`, 'must be a shape of this body');
    this._space?._assertUnlocked('Body.removeShape');
    this._invalidate();
    this._space?._shapeRemoved(this, shape);
    this._shapes.splice(i, 1);
    shape.body = null;
    this._updateMass();
    return this;
  }

  /** @internal ShapeOwner */
  _assertShapeMutable(what: string): void {
    this._space?._assertUnlocked(what);
  }
  /** @internal ShapeOwner */
  _shapeGeometryChanged(shape: Shape): void {
    this._updateMass();
    this._space?._shapeChanged(this, shape, true);
    this._invalidate();
  }
  /** @internal ShapeOwner */
  _shapeMaterialChanged(shape: Shape): void {
    this._space?._shapeChanged(this, shape, false);
    this._invalidate();
  }

  // ------------------------------------------------------------------ internals

  /** Wake this body's island and tell the space something changed. The single wake path. */
  invalidate(): void {
    this._invalidate();
  }

  /** @internal */
  _invalidate(): void {
    this._space?._invalidateBody(this);
  }

  /** @internal */
  _setAngle(a: number): void {
    this._angle = a;
    this._c = Math.cos(a);
    this._s = Math.sin(a);
  }

  /** @internal position or rotation set by hand */
  private _transformChanged(): void {
    if (this._space) this._space._bodyTransformChanged(this);
    else for (const s of this._shapes) s.updateWorld(this._x, this._y, this._c, this._s);
  }

  /**
   * @internal Recompute mass, centre of mass and inertia from shapes and explicit overrides.
   * Keeps the world centre of mass fixed? No: the origin is the user's frame, so the origin
   * stays put and the centre of mass moves with the shapes (Box2D does the same).
   */
  _updateMass(): void {
    let mass = 0;
    let cx = 0;
    let cy = 0;
    let inertiaOrigin = 0;
    let maxR2 = 0;
    const massData: MassData[] = [];
    for (const s of this._shapes) {
      const md = s.computeMass();
      massData.push(md);
      mass += md.mass;
      cx += md.mass * md.cx;
      cy += md.mass * md.cy;
      inertiaOrigin += md.inertia;
    }
    if (mass > 0) {
      cx /= mass;
      cy /= mass;
    } else if (this._shapes.length > 0) {
      // Zero-area shapes only (segments): use the average of their centroids.
      for (const md of massData) {
        cx += md.cx;
        cy += md.cy;
      }
      cx /= this._shapes.length;
      cy /= this._shapes.length;
    }
    // Inertia about the centre of mass (parallel axis theorem).
    let inertia = inertiaOrigin - mass * (cx * cx + cy * cy);
    for (const s of this._shapes) maxR2 = Math.max(maxR2, s.maxExtent(cx, cy) ** 2);
    this._lcx = cx;
    this._lcy = cy;
    this._maxExtent = Math.sqrt(maxR2);
    let minExtent = Infinity;
    for (const s of this._shapes) minExtent = Math.min(minExtent, s.minExtent());
    this._minExtent = minExtent;
    this._round = this._shapes.length > 0 && this._shapes.every((s) => s.kind === 'circle' && s.offsetX === cx && s.offsetY === cy);

    if (this._type !== 'dynamic') {
      this._mass = this._explicitMass ?? mass;
      this._inertia = this._explicitInertia ?? inertia;
      this._invMass = 0;
      this._invInertia = 0;
      return;
    }
    // A dynamic body needs positive mass: without area it defaults to 1 kg (as Box2D).
    const shapeMass = mass;
    mass = this._explicitMass ?? (mass > 0 ? mass : 1);
    if (this._explicitInertia !== null) inertia = this._explicitInertia;
    else if (shapeMass > 0 && inertia > 0) inertia *= mass / shapeMass; // explicit mass scales the density
    else inertia = mass; // no area: a unit-radius-of-gyration default, so rotation stays solvable
    this._mass = mass;
    this._inertia = inertia;
    this._invMass = this._allowMovement ? 1 / mass : 0;
    this._invInertia = this._allowRotation && inertia > 0 ? 1 / inertia : 0;
  }
}

function checkBodyType(t: unknown): BodyType {
  if (!BODY_TYPES.includes(t as BodyType)) fail('Body', 'type', t, "must be 'dynamic', 'static' or 'kinematic'");
  return t as BodyType;
}

function checkShapeAttachable(s: unknown, where: string): void {
  if (s === null || typeof s !== 'object' || typeof (s as Shape).computeMass !== 'function') {
    fail('Body', where, s, 'must be a Shape (Circle, Polygon, Capsule or Segment)');
  }
  if ((s as Shape).body !== null) fail('Body', where, `${(s as Shape).kind}#${(s as Shape).id}`, 'is already attached to a body');
}
