/**
 * Test scene: every component kind @fulcrum/react exports (both entries), with every event prop
 * and every kind of ref, for the churn test (churn.test.tsx). It is kept small, about one of
 * each, because the test mounts it 10,000 times.
 *
 * - <Body>: dynamic, static (with and without shapes) and kinematic, all with the five event
 *   props; object refs and a callback ref with a cleanup. The ball has a contactForceThreshold
 *   (so the world subscribes to contactForce, and its onContactForce fires) and pointer handlers;
 *   a second kinematic body, the lift, follows a `target` (a before-step callback). In a
 *   <Canvas>, one body has three.js children (so its shapes do not draw themselves) and the
 *   others draw their default look (the ball's mesh forwards pointer events).
 * - Every shape: <Circle>, <Box> (rounded), <Polygon> (convex, and a concave one decomposed into
 *   pieces, with piecesRef), <Capsule> (by length, and by p1/p2), <Segment>, <Chain>, with the
 *   common props (offset, angle, density, friction, restitution, filter, sensor, userData, color)
 *   and a shape ref; a fluid <Box>, a oneWay <Segment> and a conveyor <Box> (tangentSpeed): the
 *   contact rules the world's pre-solve callback runs.
 * - Every joint, each with onBreak: a <WeldJoint> breaks under force on the first step
 *   (removeOnBreak, so it stays out of the space), and a second <PivotJoint> waits for a body
 *   that never mounts (the world's pending list). A joint comes before its bodies in JSX order.
 * - <UserConstraint> with inline hooks (jacobian form, with position).
 * - <SymbolicConstraint> (the '@fulcrum/react/symbolic' entry), with scalars and vectors.
 * - <InstancedBodies> with a shape template, the five event props and pointer handlers (in a
 *   <Canvas>, with a material child inside its instanced mesh).
 * - Every hook: useBeforeStep and useAfterStep (step callbacks), useBody (a body watcher),
 *   usePreSolve (with the contact rules, the space's preSolve), useSpace and usePhysics.
 * - In a <Canvas> only (they need R3F's store): <PointerDrag> and <DebugLines>, unless
 *   `canvasTools` is false (for a <Physics dragging debug>, which mounts them itself).
 *
 * `events` counts what the scene's handlers saw, so a test can tell that the scene really ran.
 */
import type { Chain as EngineChain, Body as EngineBody, Polygon as EnginePolygon, UserConstraint as EngineUserConstraint } from '@fulcrum/physics';
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { Body } from '../components/Body.js';
import { DebugLines } from '../debug/DebugLines.js';
import { PointerDrag } from '../drag/PointerDrag.js';
import { useAfterStep, useBeforeStep, useBody, usePhysics, useSpace } from '../hooks/hooks.js';
import { usePreSolve } from '../hooks/use-pre-solve.js';
import { InstancedBodies, type InstanceProps } from '../instanced/InstancedBodies.js';
import { AngleJoint, DistanceJoint, LineJoint, MotorJoint, PivotJoint, PulleyJoint, WeldJoint } from '../joints/joints.js';
import { UserConstraint } from '../joints/UserConstraint.js';
import { Box, Capsule, Chain, Circle, Polygon, Segment } from '../shapes/shapes.js';
import { SymbolicConstraint } from '../symbolic/index.js';

/** What the mounted scene has in its space after its first step (a drag's anchor body and joint aside). */
export const EVERY_COMPONENT_COUNTS = {
  /** ceiling, ground, ball, crate, platform, lift, and 2 instances. */
  bodies: 8,
  /**
   * Pivot, Angle, Distance, Line, Motor, Pulley, user, symbolic: the weld was in the space too,
   * until it broke in the step; the waiting pivot never joins.
   */
  constraintsAfterStep: 8,
};

/** Where the ball (a dynamic body) is, for a pointer to grab it. */
export const BALL_POSITION = [0, -4.1] as const;

export interface SceneEvents {
  /** Layout-effect mounts and unmounts of a component in the scene (StrictMode doubles them). */
  mounts: number;
  unmounts: number;
  beginContact: number;
  contactForce: number;
  /** Calls of the usePreSolve callback. */
  preSolve: number;
  broke: number;
  beforeStep: number;
  afterStep: number;
  /** Calls of the callback ref with a body, and of its cleanup. */
  refCalls: number;
  refCleanups: number;
}

export function sceneEvents(): SceneEvents {
  return { mounts: 0, unmounts: 0, beginContact: 0, contactForce: 0, preSolve: 0, broke: 0, beforeStep: 0, afterStep: 0, refCalls: 0, refCleanups: 0 };
}

const ROPE = `
  body hook, crate
  vector anchor
  scalar length
  constraint
    let p = hook.position + relative hook.rotation anchor in
    |crate.position - p| - length
`;

const INSTANCES: readonly InstanceProps[] = [
  { key: 'a', position: [6, -4] },
  { key: 'b', position: [7, -4], type: 'kinematic', angularVel: 1 },
];

/** Uses every hook, and counts its layout-effect mounts (StrictMode runs them twice). */
function Hooked({ events, watch }: { events: SceneEvents; watch: { current: EngineBody | null } }): ReactNode {
  const space = useSpace();
  if (usePhysics().space !== space) throw new Error('usePhysics().space is not useSpace()');
  useBeforeStep(() => void events.beforeStep++);
  useAfterStep(() => void events.afterStep++);
  usePreSolve(() => void events.preSolve++);
  useBody(watch);
  useLayoutEffect(() => {
    events.mounts++;
    return () => void events.unmounts++;
  }, [events]);
  return null;
}

export function EveryComponent({ events, canvas, canvasTools = true }: { events: SceneEvents; canvas: boolean; canvasTools?: boolean }): ReactNode {
  const ceiling = useRef<EngineBody>(null);
  const ground = useRef<EngineBody>(null);
  const ball = useRef<EngineBody>(null);
  const crate = useRef<EngineBody>(null);
  const platform = useRef<EngineBody>(null);
  const never = useRef<EngineBody>(null); // no <Body> ever takes this ref
  const circle = useRef(null);
  const pieces = useRef<readonly EnginePolygon[]>(null);
  const chain = useRef<EngineChain>(null);
  const handlers = {
    onBeginContact: () => void events.beginContact++,
    onEndContact: () => {},
    onContactForce: () => void events.contactForce++,
    onWake: () => {},
    onSleep: () => {},
  };
  const pointer = { onClick: () => {}, onPointerOver: () => {}, onPointerOut: () => {} };
  const onBreak = () => void events.broke++;
  return (
    <>
      <Hooked events={events} watch={ball} />
      {/* Before its bodies in JSX order. */}
      <PivotJoint body1={ceiling} body2={ball} anchor1={[0, -9.1]} onBreak={onBreak} />
      <Body ref={ceiling} type="static" position={[0, 5]} userData={{ name: 'ceiling' }} {...handlers} />
      <Body ref={ground} type="static" position={[0, -5]} {...handlers}>
        <Box width={20} height={1} radius={0.02} friction={0.8} tangentSpeed={0.5} color={0x336699} />
        <Segment p1={[-10, 0.5]} p2={[10, 0.5]} restitution={0.1} oneWay />
        <Chain ref={chain} vertices={[[10, 3], [9, 2], [8, 2.5]]} friction={0.6} />
        {/* An L: concave, so decomposed into pieces. */}
        <Polygon piecesRef={pieces} vertices={[[-10, 1], [-8, 1], [-8, 2], [-9, 2], [-9, 3], [-10, 3]]} />
        <Box width={2} height={1} offset={[-6, 1.5]} fluid={{ density: 2, viscosity: 1 }} />
      </Body>
      <Body ref={ball} position={[...BALL_POSITION]} angularVel={1} linearDrag={0.05} contactForceThreshold={0.001} {...handlers} {...pointer}>
        <Circle ref={circle} radius={0.5} density={2} restitution={0.3} userData="ball" />
      </Body>
      <Body
        ref={(b: EngineBody | null) => {
          crate.current = b;
          if (b === null) return;
          events.refCalls++;
          return () => {
            events.refCleanups++;
            crate.current = null;
          };
        }}
        position={[2, -4.1]}
        rotation={0.05}
        gravityScale={0.5}
        drawShapes={canvas ? false : undefined}
        {...handlers}
      >
        <Polygon vertices={[[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]} filter={{ category: 2, mask: 0xffff, group: 0 }} />
        <Capsule radius={0.2} length={0.6} offset={[0, 0.7]} angle={0.1} density={0.5} />
        {canvas && (
          <mesh>
            <boxGeometry args={[1, 1, 0.1]} />
          </mesh>
        )}
      </Body>
      <Body ref={platform} type="kinematic" position={[0, 2]} velocity={[0.5, 0]} angularVel={0.1} {...handlers}>
        <Capsule radius={0.1} p1={[-1.5, 0]} p2={[1.5, 0]} sensor />
      </Body>
      <Body type="kinematic" position={[-4, -1]} target={[-4, 0]} targetRotation={0.2} {...handlers}>
        <Box width={1} height={0.2} />
      </Body>

      <WeldJoint body1={crate} body2={platform} breakUnderForce maxForce={1e-3} onBreak={onBreak} />
      <AngleJoint body1={ball} body2={crate} jointMin={-1} jointMax={1} ratio={1} onBreak={onBreak} />
      <DistanceJoint body1={ball} body2={platform} jointMin={1} jointMax={7} stiff={false} frequency={3} damping={0.5} onBreak={onBreak} />
      <LineJoint body1={ground} body2={crate} anchor1={[2, 1]} direction={[1, 0]} jointMin={-3} jointMax={3} onBreak={onBreak} />
      <MotorJoint body1={platform} body2={ball} rate={1} maxForce={5} onBreak={onBreak} />
      <PulleyJoint body1={ceiling} body2={ball} body3={ceiling} body4={crate} anchor1={[0, 0]} anchor3={[2, 0]} jointMin={17} jointMax={19} onBreak={onBreak} />
      <PivotJoint body1={ball} body2={never} onBreak={onBreak} />
      <UserConstraint
        dimensions={1}
        bodies={[ceiling, ball]}
        onBreak={onBreak}
        hooks={{
          position(this: EngineUserConstraint, err) {
            const [c, b] = this.bodyList;
            err[0] = Math.hypot(b!.x - c!.x, b!.y - c!.y) - 9;
          },
          jacobian(this: EngineUserConstraint, J) {
            const [c, b] = this.bodyList;
            const dx = b!.x - c!.x;
            const dy = b!.y - c!.y;
            const L = Math.hypot(dx, dy);
            J.set([-dx / L, -dy / L, 0, dx / L, dy / L, 0]);
          },
        }}
      />
      <SymbolicConstraint source={ROPE} bodies={{ hook: ceiling, crate }} scalars={{ length: 9 }} vectors={{ anchor: [2, 0] }} stiff={false} frequency={4} onBreak={onBreak} />
      <InstancedBodies instances={INSTANCES} linearDrag={0.1} {...handlers} {...pointer}>
        <Circle radius={0.3} restitution={0.5} />
        {canvas && <meshBasicMaterial color="tomato" />}
      </InstancedBodies>
      {canvas && canvasTools && <PointerDrag frequency={4} damping={0.5} filter={() => true} onDrag={() => {}} />}
      {canvas && canvasTools && <DebugLines options={{ shapes: true, contacts: true, constraints: true, aabbs: true }} />}
    </>
  );
}
