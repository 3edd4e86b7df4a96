/**
 * The crane: tower and boom segments joined by WeldJoints that break under force
 * (`breakUnderForce`, threshold `maxForce`). A broken weld leaves the space (removeOnBreak) and
 * the structure above it falls. The hook platform hangs from the boom tip on two rope
 * DistanceJoints (slack allowed, never longer than the rope).
 */
import type { Body as EngineBody } from '@fulcrum/physics';
import type { ConstraintBreakEvent } from '@fulcrum/physics';
import { Body, Box, DistanceJoint, WeldJoint } from '@fulcrum/react';
import { createRef, useMemo, type ReactNode, type RefObject } from 'react';
import { craneLayout, hookPoint, type Weld } from './crane-layout.js';
import { RopeLine } from './RopeLine.js';

export interface CraneProps {
  baseX: number;
  ground: RefObject<EngineBody | null>;
  /** Where the ground body's origin is, to express weld points in its frame. */
  groundOrigin: readonly [number, number];
  /** Newtons (the weld's force norm, its torque row included) at which a weld breaks. */
  weldStrength: number;
  onWeldBreak: (weld: Weld, event: ConstraintBreakEvent) => void;
}

const STEEL = 0xe0b43c;
const HOOK_DROP = 2.5;
const SLING_HALF_SPAN = 0.6;

export function Crane({ baseX, ground, groundOrigin, weldStrength, onWeldBreak }: CraneProps): ReactNode {
  const layout = useMemo(() => craneLayout(baseX), [baseX]);
  const refs = useMemo(() => layout.segments.map(() => createRef<EngineBody>()), [layout]);
  const hook = useMemo(() => createRef<EngineBody>(), []);
  // Segments never collide with each other: they overlap at the welds and tumble together.
  const filter = useMemo(() => ({ group: -1 }), []);
  const [hookX, hookY] = hookPoint(layout);
  const hang: readonly [number, number] = [hookX, hookY - HOOK_DROP];

  const frameOf = (index: number): readonly [number, number] => {
    if (index < 0) return groundOrigin;
    const s = layout.segments[index]!;
    return [s.x, s.y];
  };
  const local = (index: number, p: readonly [number, number]) => {
    const [ox, oy] = frameOf(index);
    return [p[0] - ox, p[1] - oy] as const;
  };

  return (
    <>
      {layout.segments.map((s, i) => (
        // Drag stands in for the structure's own damping: without it the welded cantilever rings
        // for many seconds after a load lands, and never rests.
        <Body key={i} ref={refs[i]} position={[s.x, s.y]} linearDrag={1} angularDrag={2}>
          <Box width={s.width} height={s.height} density={2} filter={filter} color={STEEL} />
        </Body>
      ))}
      {layout.welds.map((w) => (
        <WeldJoint
          key={w.label}
          body1={w.a < 0 ? ground : refs[w.a]}
          body2={refs[w.b]}
          anchor1={local(w.a, w.point)}
          anchor2={local(w.b, w.point)}
          breakUnderForce
          maxForce={weldStrength}
          onBreak={(e) => onWeldBreak(w, e)}
        />
      ))}
      {/* Drag stands in for air and rope friction: a loaded hook stops swinging, and can sleep. */}
      <Body ref={hook} position={hang} linearDrag={0.6} angularDrag={1.5}>
        <Box width={2 * SLING_HALF_SPAN + 0.3} height={0.2} density={2} color={0x8a93a6} />
      </Body>
      {[-SLING_HALF_SPAN, SLING_HALF_SPAN].map((dx) => (
        <Sling key={dx} tip={refs[layout.tip]!} tipAnchor={layout.tipAnchor} hook={hook} hookAnchor={[dx, 0.1]} length={Math.hypot(dx, HOOK_DROP - 0.1)} />
      ))}
    </>
  );
}

interface SlingProps {
  tip: RefObject<EngineBody | null>;
  tipAnchor: readonly [number, number];
  hook: RefObject<EngineBody | null>;
  hookAnchor: readonly [number, number];
  length: number;
}

function Sling({ tip, tipAnchor, hook, hookAnchor, length }: SlingProps): ReactNode {
  return (
    <>
      <DistanceJoint body1={tip} body2={hook} anchor1={tipAnchor} anchor2={hookAnchor} jointMin={0} jointMax={length} />
      <RopeLine from={tip} fromAnchor={tipAnchor} to={hook} toAnchor={hookAnchor} />
    </>
  );
}
