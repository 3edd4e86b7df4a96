// box2d-wasm 7 (Box2D 2.4.1 compiled to WebAssembly). Metres, y up.
// In Node the module's own loader would fetch its .wasm; instead the bytes are read from the package and
// passed as `wasmBinary`. The SIMD build is used when WebAssembly SIMD validates (as the package's entry does).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const DT = 1 / 60;
const VELOCITY_ITERATIONS = 8; // Box2D 2.4's testbed defaults (b2World::Step has no defaults of its own)
const POSITION_ITERATIONS = 3;

// The feature test box2d-wasm's entry.js uses (from wasm-feature-detect).
const HAS_SIMD = WebAssembly.validate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]));

async function loadBox2D() {
  const js = require.resolve(`box2d-wasm/dist/umd/Box2D${HAS_SIMD ? '.simd' : ''}.js`);
  const factory = require(js);
  const wasmBinary = readFileSync(js.replace(/\.js$/, '.wasm'));
  return factory({ wasmBinary });
}

export async function create(spec) {
  const B = await loadBox2D();
  const vec = (x, y) => new B.b2Vec2(x, y);
  const gravity = vec(0, -10);
  const world = new B.b2World(gravity);
  B.destroy(gravity);
  world.SetAllowSleeping(false);

  const bodyDef = new B.b2BodyDef();
  const fixtureDef = new B.b2FixtureDef();
  fixtureDef.set_density(1);
  fixtureDef.set_friction(0.6);
  fixtureDef.set_restitution(0);
  const box = new B.b2PolygonShape();
  const circle = new B.b2CircleShape();
  const pos = vec(0, 0);
  const bodies = spec.bodies.map((b) => {
    bodyDef.set_type(b.type === 'static' ? B.b2_staticBody : B.b2_dynamicBody);
    pos.Set(b.x, b.y);
    bodyDef.set_position(pos);
    const body = world.CreateBody(bodyDef);
    if (b.shape) {
      if (b.shape.kind === 'box') {
        box.SetAsBox(b.shape.w / 2, b.shape.h / 2);
        fixtureDef.set_shape(box);
      } else {
        circle.set_m_radius(b.shape.r);
        fixtureDef.set_shape(circle);
      }
      const filter = fixtureDef.get_filter();
      filter.set_groupIndex(b.collide ? 0 : -1);
      fixtureDef.set_filter(filter);
      body.CreateFixture(fixtureDef); // copies the shape
    }
    return body;
  });
  const jd = new B.b2RevoluteJointDef();
  const a1 = vec(0, 0);
  const a2 = vec(0, 0);
  for (const j of spec.joints) {
    jd.set_bodyA(bodies[j.a]);
    jd.set_bodyB(bodies[j.b]);
    a1.Set(j.anchorA[0], j.anchorA[1]);
    a2.Set(j.anchorB[0], j.anchorB[1]);
    jd.set_localAnchorA(a1);
    jd.set_localAnchorB(a2);
    jd.set_referenceAngle(0);
    jd.set_collideConnected(false);
    world.CreateJoint(jd);
  }
  for (const o of [bodyDef, fixtureDef, box, circle, pos, jd, a1, a2]) B.destroy(o);

  return {
    step: () => world.Step(DT, VELOCITY_ITERATIONS, POSITION_ITERATIONS),
    pose: (k) => {
      const b = bodies[k];
      const p = b.GetPosition();
      return [p.get_x(), p.get_y(), b.GetAngle()];
    },
    settings: {
      call: `world.Step(1/60, ${VELOCITY_ITERATIONS}, ${POSITION_ITERATIONS})`,
      velocityIterations: VELOCITY_ITERATIONS,
      positionIterations: POSITION_ITERATIONS,
      build: HAS_SIMD ? 'Box2D.simd.wasm' : 'Box2D.wasm',
      allowSleeping: world.GetAllowSleeping(),
      warmStarting: world.GetWarmStarting(),
      continuousPhysics: world.GetContinuousPhysics(),
      noCollide: 'fixture filter groupIndex -1',
      joint: 'b2RevoluteJointDef',
    },
  };
}
