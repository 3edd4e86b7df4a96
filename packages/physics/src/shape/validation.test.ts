import { describe, expect, it } from 'vitest';
import { Capsule } from './capsule.js';
import { Circle } from './circle.js';
import { Polygon } from './polygon.js';
import { Segment } from './segment.js';
import { inputError } from '../test-support/input-error.js';


describe('shape input validation', () => {
  it('Circle.radius must be positive and finite', () => {
    expect(inputError(() => new Circle({ radius: 0 })).message).toBe('Circle.radius must be a positive finite number, got 0');
    expect(inputError(() => new Circle({ radius: -1 })).message).toContain('Circle.radius');
    expect(inputError(() => new Circle({ radius: NaN })).message).toContain('got NaN');
    expect(inputError(() => new Circle({ radius: Infinity })).message).toContain('got Infinity');
  });

  it('common options: NaN density / offset name the property and value', () => {
    expect(inputError(() => new Circle({ radius: 1, density: NaN })).message).toBe('Circle.density must be a positive finite number, got NaN');
    expect(inputError(() => Polygon.box(1, 1, { offset: [NaN, 0] })).message).toBe('Polygon.offset must be a vector with finite components, got [NaN, 0]');
    expect(inputError(() => new Capsule({ length: 1, radius: 0.1, density: 0 })).message).toBe('Capsule.density must be a positive finite number, got 0');
  });

  it('Polygon: fewer than 3 vertices', () => {
    const e = inputError(() => new Polygon({ vertices: [[0, 0], [1, 0]] }));
    expect(e.message).toBe('Polygon.vertices must have 3 to 64 vertices (has 2), got [[0, 0], [1, 0]]');
  });

  it('Polygon: too many vertices', () => {
    const v = Array.from({ length: 65 }, (_, i) => [Math.cos(i / 10), Math.sin(i / 10)] as [number, number]);
    expect(inputError(() => new Polygon({ vertices: v })).message).toContain('(has 65)');
  });

  it('Polygon: non-finite vertex', () => {
    const e = inputError(() => new Polygon({ vertices: [[0, 0], { x: 1, y: Infinity }, [0, 1]] }));
    expect(e.message).toBe('Polygon.vertices[1] must be a vector with finite components, got {x: 1, y: Infinity}');
  });

  it('Polygon: collinear', () => {
    const e = inputError(() => new Polygon({ vertices: [[0, 0], [1, 1], [2, 2]] }));
    expect(e.message).toBe('Polygon.vertices must not be collinear (the polygon has zero area), got [[0, 0], [1, 1], [2, 2]]');
  });

  it('Polygon: concave names the vertex', () => {
    const e = inputError(() => new Polygon({ vertices: [[0, 0], [2, 0], [1, 0.5], [2, 2], [0, 2]] }));
    expect(e.message).toContain('Polygon.vertices must be convex (concave at vertex 2)');
    // same outline clockwise: vertex indices refer to the user's array
    const cw = inputError(() => new Polygon({ vertices: [[0, 2], [2, 2], [1, 0.5], [2, 0], [0, 0]] }));
    expect(cw.message).toContain('concave at vertex 2');
  });

  it('Polygon: duplicate / near-coincident points and collinear middle vertices', () => {
    expect(inputError(() => new Polygon({ vertices: [[0, 0], [1, 0], [1, 0], [0, 1]] })).message).toContain(
      'Polygon.vertices[2] must not coincide with vertices[1]',
    );
    expect(inputError(() => new Polygon({ vertices: [[0, 0], [1, 0], [0, 1], [0.0001, 0.0001]] })).message).toContain(
      'vertices[3] must not coincide with vertices[0]',
    );
    expect(inputError(() => new Polygon({ vertices: [[0, 0], [1, 0], [2, 0], [1, 1]] })).message).toContain('vertex 1 is collinear');
  });

  it('Polygon: self-intersecting star', () => {
    const star = [0, 2, 4, 1, 3].map((k) => [Math.cos((2 * Math.PI * k) / 5), Math.sin((2 * Math.PI * k) / 5)] as [number, number]);
    expect(inputError(() => new Polygon({ vertices: star })).message).toContain('must not self-intersect');
  });

  it('Polygon: clockwise input is normalised to CCW, vertex 0 kept', () => {
    const p = new Polygon({ vertices: [[0, 0], [0, 1], [1, 1], [1, 0]] });
    expect(p.vertices).toEqual([{ x: 0, y: 0 }, { x: 1, y: 0 }, { x: 1, y: 1 }, { x: 0, y: 1 }]);
    expect(Array.from(p.localNormals)).toEqual([0, -1, 1, 0, 0, 1, -1, 0]);
  });

  it('Polygon: radius, box and regular arguments', () => {
    expect(inputError(() => new Polygon({ vertices: [[0, 0], [1, 0], [0, 1]], radius: -0.1 })).message).toBe(
      'Polygon.radius must be a non-negative finite number, got -0.1',
    );
    expect(inputError(() => Polygon.box(0, 1)).message).toBe('Polygon.box.width must be a positive finite number, got 0');
    expect(inputError(() => Polygon.box(1, NaN)).message).toBe('Polygon.box.height must be a positive finite number, got NaN');
    expect(inputError(() => Polygon.regular(1, 2)).message).toBe('Polygon.regular.sides must be an integer in [3, 64], got 2');
    expect(inputError(() => Polygon.regular(-1, 5)).message).toContain('Polygon.regular.radius');
  });

  it('Capsule: radius, length and points', () => {
    expect(inputError(() => new Capsule({ length: 1, radius: 0 })).message).toBe('Capsule.radius must be a positive finite number, got 0');
    expect(inputError(() => new Capsule({ length: -1, radius: 0.1 })).message).toBe('Capsule.length must be a positive finite number, got -1');
    expect(inputError(() => new Capsule({ p1: [0, 0], p2: [0, 0], radius: 0.1 })).message).toContain('Capsule.p2 must be at least');
    expect(inputError(() => new Capsule({ p1: [0, NaN], p2: [1, 0], radius: 0.1 })).message).toContain('Capsule.p1');
  });

  it('Segment: points', () => {
    expect(inputError(() => new Segment({ p1: [1, 1], p2: [1, 1] })).message).toBe('Segment.p2 must be at least 0.0025 m from p1, got [1, 1]');
    const s = new Segment({ p1: [0, 0], p2: [1, 0] });
    expect(inputError(() => (s.radius = 0.1)).message).toContain('Segment.radius');
  });

  it('setters validate first: nothing is half-applied', () => {
    const p = Polygon.box(1, 1);
    const before = Array.from(p.localVerts);
    inputError(() => (p.vertices = [[0, 0], [1, 0], [0.5, 0.2], [1, 1], [0, 1]]));
    expect(Array.from(p.localVerts)).toEqual(before);
    const c = new Circle({ radius: 1 });
    inputError(() => (c.radius = NaN));
    expect(c.radius).toBe(1);
    const cap = new Capsule({ length: 1, radius: 0.2 });
    inputError(() => (cap.radius = -1));
    expect(cap.radius).toBe(0.2);
    inputError(() => (cap.p2 = cap.p1));
    expect(cap.length).toBe(1);
  });

  it('setters notify the owner body of geometry changes', () => {
    const c = new Circle({ radius: 1 });
    let geometry = 0;
    c.body = { _assertShapeMutable: () => {}, _shapeGeometryChanged: () => geometry++, _shapeMaterialChanged: () => {} };
    c.radius = 2;
    expect(geometry).toBe(1);
    const p = Polygon.box(1, 1);
    p.body = c.body;
    p.vertices = [[0, 0], [2, 0], [0, 2]];
    p.radius = 0.1;
    expect(geometry).toBe(3);
    expect(p.count).toBe(3);
    expect(p.worldVerts.length).toBe(6);
  });
});
