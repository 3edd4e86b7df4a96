import { Body as EngineBody } from '@fulcrum/physics';
import ReactThreeTestRenderer from '@react-three/test-renderer';
import { createRef, type ReactNode } from 'react';
import { Matrix4, Quaternion, Vector3, type Group, type InstancedMesh, type Mesh, type Object3D } from 'three';
import { describe, expect, it } from 'vitest';
import { InstancedBodies } from '../instanced/InstancedBodies.js';
import { Box, Circle } from '../shapes/shapes.js';
import { makeProbe } from '../test-support/probe.js';
import { Body } from './Body.js';
import { Physics } from './Physics.js';

const STEP = 1 / 60;

/** The world matrix a body's group should have: its position and rotation about z, scale 1. */
function poseMatrix(b: EngineBody): Matrix4 {
  return new Matrix4().makeRotationZ(b.rotation).setPosition(b.x, b.y, 0);
}

function expectAtPose(object: Object3D, b: EngineBody): void {
  object.updateWorldMatrix(true, false);
  const got = object.matrixWorld.elements;
  const want = poseMatrix(b).elements;
  for (let i = 0; i < 16; i++) expect(got[i]).toBeCloseTo(want[i]!, 9);
}

/** A translated, rotated (about z) and non-uniformly scaled group, inside another translated one. */
function Transformed({ outer, children }: { outer?: React.RefObject<Group | null>; children: ReactNode }): ReactNode {
  return (
    <group ref={outer} position={[1, 2, 0]}>
      <group position={[3, -2, 0.5]} rotation={[0, 0, 0.7]} scale={[2, 0.5, 1]}>
        {children}
      </group>
    </group>
  );
}

describe('a <Body> inside transformed three.js groups', () => {
  it('is drawn at its world pose: the mesh world position is the engine body\'s position, after frames', async () => {
    const probe = makeProbe();
    const ball = createRef<EngineBody>();
    const mesh = createRef<Mesh>();
    const r = await ReactThreeTestRenderer.create(
      <Physics gravity={[0, -10]} interpolate={false}>
        <probe.Component />
        <Transformed>
          <Body ref={ball} position={[0.5, 4]} rotation={0.3} angularVel={2}>
            <Circle radius={0.5} />
            <mesh ref={mesh}>
              <boxGeometry args={[1, 1, 0.1]} />
            </mesh>
          </Body>
        </Transformed>
      </Physics>,
    );
    // At mount, before any step.
    const p = mesh.current!.getWorldPosition(new Vector3());
    expect(p.x).toBeCloseTo(0.5, 9);
    expect(p.y).toBeCloseTo(4, 9);
    expect(p.z).toBeCloseTo(0, 9);
    await ReactThreeTestRenderer.act(() => r.advanceFrames(30, STEP));
    const b = ball.current!;
    expect(b.y).toBeLessThan(3); // it fell
    mesh.current!.getWorldPosition(p);
    expect(p.x).toBeCloseTo(b.x, 9);
    expect(p.y).toBeCloseTo(b.y, 9);
    expect(p.z).toBeCloseTo(0, 9);
    // The whole transform: rotation about z only, scale 1, whatever the groups' scale and rotation.
    expectAtPose(mesh.current!.parent!, b);
    const q = mesh.current!.getWorldQuaternion(new Quaternion());
    expect(q.angleTo(new Quaternion().setFromAxisAngle(new Vector3(0, 0, 1), b.rotation))).toBeLessThan(1e-9);
    await r.unmount();
  });

  it('a parent moved after the step (no physics frame) still draws the body where the engine has it', async () => {
    const ball = createRef<EngineBody>();
    const mesh = createRef<Mesh>();
    const outer = createRef<Group>();
    const r = await ReactThreeTestRenderer.create(
      <Physics gravity={[0, 0]}>
        <Transformed outer={outer}>
          <Body ref={ball} type="static" position={[-1, 1]} rotation={1}>
            <mesh ref={mesh} />
          </Body>
        </Transformed>
      </Physics>,
    );
    await ReactThreeTestRenderer.act(() => r.advanceFrames(2, STEP));
    outer.current!.position.set(-7, 5, 3);
    outer.current!.rotation.z = -2;
    // What the renderer does before drawing.
    outer.current!.parent!.updateMatrixWorld();
    expectAtPose(mesh.current!.parent!, ball.current!);
    await r.unmount();
  });

  it('an <InstancedBodies> mesh inside transformed groups draws each instance at its body\'s world pose', async () => {
    const bodies = createRef<readonly EngineBody[]>();
    const mesh = createRef<InstancedMesh>();
    const r = await ReactThreeTestRenderer.create(
      <Physics gravity={[0, -10]} interpolate={false}>
        <Transformed>
          <InstancedBodies ref={bodies} meshRef={mesh} instances={[{ position: [0, 3] }, { position: [2, 5], rotation: 0.5 }]}>
            <Box width={0.5} height={0.5} />
          </InstancedBodies>
        </Transformed>
      </Physics>,
    );
    await ReactThreeTestRenderer.act(() => r.advanceFrames(20, STEP));
    const m = mesh.current!;
    m.updateWorldMatrix(true, false);
    const instance = new Matrix4();
    bodies.current!.forEach((b, i) => {
      m.getMatrixAt(i, instance);
      const world = instance.premultiply(m.matrixWorld).elements;
      const want = poseMatrix(b).elements;
      // Float32 instance buffer: single precision.
      for (let k = 0; k < 16; k++) expect(world[k]).toBeCloseTo(want[k]!, 5);
    });
    await r.unmount();
  });
});
