import type { Body as EngineBody, Contact } from '@fulcrum/physics';
import { Body, Box, useAfterStep, usePhysics, useSpace } from '@fulcrum/react';
import { useFrame } from '@react-three/fiber';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useLayoutEffect, useRef, useState } from 'react';
import type { Group } from 'three';
import { range } from '../support/controls';
import { accent, ui } from '../support/palette';
import type { FulcrumParameters } from '../support/parameters';
import { createReadout } from '../support/readout';
import { Floor } from '../support/scenery';

interface Controls {
  /** The belts' surface speed, m/s (each carries its boxes its own way). */
  speed: number;
}

const FLOOR_TOP = -5;
const BELT_LENGTH = 10;
const BELT_THICKNESS = 0.3;
/** Three belts in a zigzag: top to the right, middle to the left, bottom to the right. */
const BELTS = [
  { x: -3, top: 3, dir: 1 },
  { x: 3, top: 0, dir: -1 },
  { x: -3, top: -3, dir: 1 },
];
const BOX = 0.6;
const BOXES = 8;
/** A box that leaves the belts (below the bottom one, or off the canvas) drops in again here. */
const SPAWN: [number, number] = [-7.5, 4.5];

/** The belt direction (+1 or −1) from a belt body's userData; undefined for anything else. */
const beltDir = (b: EngineBody) => (b.userData as { belt?: number } | undefined)?.belt;

interface Crate {
  key: number;
  position: [number, number];
}

const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const readout = createReadout('conveyor-readings');

/**
 * Conveyor belts: static boxes whose contacts get a tangentSpeed in the space's preSolve callback,
 * the speed friction drives the surfaces' relative slide to. A box dropped on a belt is carried at
 * the belt's speed; it falls to the next belt, and so on.
 */
function ConveyorScene({ speed }: Controls) {
  const space = useSpace();
  const physics = usePhysics();
  const speedRef = useRef(speed);
  speedRef.current = speed;
  // The callback is set once for the scene's lifetime and reads the latest speed; it is asked
  // before each step for every touching contact with an awake body. For a box on a horizontal
  // belt a positive tangentSpeed carries it to +x whichever of the two is shape1.
  useLayoutEffect(() => {
    const before = space.preSolve;
    space.preSolve = (c: Contact) => {
      const dir = beltDir(c.body1) ?? beltDir(c.body2);
      if (dir !== undefined) c.tangentSpeed = dir * speedRef.current;
    };
    return () => {
      space.preSolve = before;
    };
  }, [space]);
  // preSolve is asked only about awake bodies: boxes at rest on a stopped belt must wake to move.
  useLayoutEffect(() => {
    space.wakeAll();
    physics.requestFrame();
  }, [space, speed, physics]);

  const [crates, setCrates] = useState<Crate[]>(() =>
    Array.from({ length: BOXES }, (_, i) => ({ key: i, position: [-7.5 + i * 1.1, BELTS[0]!.top + BOX / 2 + 0.05 + (i % 2) * 0.7] })),
  );
  const next = useRef(BOXES);
  const respawned = useRef(new Set<number>());
  useLayoutEffect(() => readout.set(''), []);

  useAfterStep((s) => {
    const along: number[] = [];
    let fallen: number | undefined;
    for (const b of s.bodies) {
      const key = (b.userData as { crate?: number } | undefined)?.crate;
      if (key === undefined || respawned.current.has(key)) continue;
      if (b.y < BELTS[2]!.top - 1.2 || Math.abs(b.x) > 11) fallen ??= key;
      const onBelt = b.contacts.find((c) => c.touching && !c.isSensor && beltDir(c.body1 === b ? c.body2 : c.body1) !== undefined);
      if (onBelt) along.push(b.velocity.x * beltDir(onBelt.body1 === b ? onBelt.body2 : onBelt.body1)!);
    }
    // One box back in at a time, when the drop point is clear: a new <Body> (a new key).
    if (fallen !== undefined && s.queryAABB([SPAWN[0] - BOX, SPAWN[1] - BOX], [SPAWN[0] + BOX, SPAWN[1] + BOX]).length === 0) {
      respawned.current.add(fallen);
      const crate = { key: next.current++, position: SPAWN };
      setCrates((list) => list.map((c) => (c.key === fallen ? crate : c)));
    }
    readout.set(
      `boxes on the belts: ${along.length} · their median speed along the belt: ${along.length ? median(along).toFixed(2) : '–'} m/s (belt speed ${speedRef.current} m/s)`,
    );
  });

  return (
    <>
      <Floor top={FLOOR_TOP} />
      {BELTS.map((belt, i) => (
        <Body key={i} type="static" position={[belt.x, belt.top - BELT_THICKNESS / 2]} userData={{ belt: belt.dir }} drawShapes>
          <Box width={BELT_LENGTH} height={BELT_THICKNESS} friction={0.8} color={accent.machine} />
          <BeltMarks speed={speed * belt.dir} />
        </Body>
      ))}
      {crates.map((crate, i) => (
        <Body key={crate.key} position={crate.position} userData={{ crate: crate.key, dragHandle: i === 0 }}>
          <Box width={BOX} height={BOX} friction={0.8} color={accent.subject} />
        </Body>
      ))}
    </>
  );
}

const MARK_SPACING = 0.8;

/** Marks on the belt's top that move at its surface speed (drawn only; the belt body is static). */
function BeltMarks({ speed }: { speed: number }) {
  const space = useSpace();
  const group = useRef<Group>(null);
  useFrame(() => {
    if (!group.current) return;
    const shift = (speed * space.time) % MARK_SPACING;
    group.current.position.x = shift < 0 ? shift + MARK_SPACING : shift;
  });
  const count = Math.floor(BELT_LENGTH / MARK_SPACING) - 1;
  return (
    <group>
      <group ref={group}>
        {Array.from({ length: count }, (_, i) => (
          <mesh key={i} position={[-BELT_LENGTH / 2 + (i + 0.5) * MARK_SPACING, 0.05, 0.01]}>
            <planeGeometry args={[0.12, BELT_THICKNESS - 0.1]} />
            <meshBasicMaterial color={ui.muted} />
          </mesh>
        ))}
      </group>
    </group>
  );
}

const meta = {
  title: 'Scenes/Conveyor belts',
  component: ConveyorScene,
  args: { speed: 2 },
  argTypes: { speed: { ...range(0, 6, 0.5), description: "The belts' surface speed (m/s): the tangentSpeed the preSolve callback gives their contacts." } },
  parameters: { fulcrum: { panel: readout.Panel } satisfies FulcrumParameters },
} satisfies Meta<typeof ConveyorScene>;

export default meta;

/** Boxes ride three belts down a zigzag at the belts' speed (preSolve sets each contact's tangentSpeed). */
export const Zigzag: StoryObj<typeof meta> = {};
