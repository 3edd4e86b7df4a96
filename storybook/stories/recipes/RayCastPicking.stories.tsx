import { Body, Box, useAfterStep, usePhysics } from '@fulcrum/react';
import type { RayHit } from '@fulcrum/physics';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import type { Mesh } from 'three';
import { accent, bodyColors } from '../support/palette';
import type { FulcrumParameters } from '../support/parameters';
import { createReadout } from '../support/readout';

const readout = createReadout('ray-pick');
/** Where the ray starts (a turret on the left), and how far it reaches. */
const EMITTER: [number, number] = [-8, -3.5];
const REACH = 40;

/**
 * Picking with a ray cast: `usePhysics()` hands out the space's queries, bound, so they
 * destructure. The ray runs from the turret towards the pointer (an invisible plane behind the
 * scene takes R3F's pointer events and gives the world point); `rayCast(from, to)` returns the
 * first shape it meets, with the point, the normal and the fraction of the way. The body hit is
 * drawn in another colour, and the ray is drawn up to the hit. It is cast again after every step
 * (the crates may move: the high one and the ball drop onto their shelves as the scene opens) and
 * on every pointer move (the scene may be asleep).
 */
function RayCastPickingScene() {
  const { rayCast, requestFrame } = usePhysics();
  const [aim, setAim] = useState<[number, number]>([EMITTER[0] + 1, EMITTER[1]]);
  const [picked, setPicked] = useState<string | null>(null);
  const beam = useRef<Mesh>(null);
  const cast = useCallback(() => {
    const dx = aim[0] - EMITTER[0], dy = aim[1] - EMITTER[1];
    const len = Math.hypot(dx, dy) || 1;
    const to: [number, number] = [EMITTER[0] + (REACH * dx) / len, EMITTER[1] + (REACH * dy) / len];
    const hit: RayHit | null = rayCast(EMITTER, to);
    const name = hit ? ((hit.body.userData as { name?: string } | undefined)?.name ?? `body ${hit.body.id}`) : null;
    setPicked(name);
    readout.set(hit ? `ray hits: ${name} at (${hit.point.x.toFixed(2)}, ${hit.point.y.toFixed(2)})` : 'ray hits: nothing');
    const end = hit ? [hit.point.x, hit.point.y] : to;
    const m = beam.current;
    const bx = end[0]! - EMITTER[0], by = end[1]! - EMITTER[1];
    // Redrawn only when the beam changed: a frame requested after every step would keep a
    // resting scene rendering.
    if (m && (m.scale.x !== Math.hypot(bx, by) || m.rotation.z !== Math.atan2(by, bx))) {
      m.position.set(EMITTER[0] + bx / 2, EMITTER[1] + by / 2, 0.5);
      m.rotation.z = Math.atan2(by, bx);
      m.scale.set(Math.hypot(bx, by), 1, 1);
      requestFrame();
    }
  }, [aim, rayCast, requestFrame]);
  useLayoutEffect(cast, [cast]);
  useAfterStep(cast);
  const color = (name: string) => (picked === name ? accent.contrast : accent.subject);
  return (
    <>
      <mesh position={[0, 0, -1]} onPointerMove={(e) => setAim([e.point.x, e.point.y])}>
        <planeGeometry args={[60, 40]} />
        <meshBasicMaterial transparent opacity={0} depthWrite={false} />
      </mesh>
      <mesh ref={beam}>
        <planeGeometry args={[1, 0.06]} />
        <meshBasicMaterial color={accent.projectile} />
      </mesh>
      <Body type="static" position={[0, -4.25]}>
        <Box width={24} height={0.5} />
      </Body>
      {/* The turret, just behind where the ray starts (a ray that starts on a shape hits it). */}
      <Body type="static" position={[EMITTER[0] - 0.5, EMITTER[1]]}>
        <Box width={0.8} height={0.8} color={bodyColors.static} />
      </Body>
      <Body type="static" position={[5, 0.5]}>
        <Box width={2} height={0.3} />
      </Body>
      <Body position={[5, -3.5]} userData={{ name: 'low crate' }}>
        <Box width={1} height={1} color={color('low crate')} />
      </Body>
      <Body position={[5, 8]} userData={{ name: 'high crate' }}>
        <Box width={1} height={1} color={color('high crate')} />
      </Body>
      <Body type="static" position={[0, 2]}>
        <Box width={2} height={0.3} />
      </Body>
      {/* The crate and the ball drop from high up, the ball bouncing, so that the scene moves for a
          few seconds as it opens (the story checks look for motion, under any load). */}
      <Body position={[0, 11]} userData={{ name: 'ball', dragHandle: true }}>
        <Box width={0.8} height={0.8} radius={0.2} restitution={0.4} color={color('ball')} />
      </Body>
    </>
  );
}

const meta = {
  title: 'Recipes/Ray-cast picking',
  component: RayCastPickingScene,
  tags: ['settles'],
  parameters: { fulcrum: { panel: readout.Panel } satisfies FulcrumParameters },
} satisfies Meta<typeof RayCastPickingScene>;

export default meta;

export const FollowThePointer: StoryObj<typeof meta> = { name: 'Follow the pointer' };
