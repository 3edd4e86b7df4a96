/**
 * Example sources. WELD, DISTANCE and LINE are the three examples of the Nape constraints
 * manual (2012), token for token: fixtures/nape-manual/ holds them as the PDF extraction left
 * them, the repairs (REPAIRS.md) and the repaired texts, and a test checks that the repaired
 * texts are these; PIVOT is the Weld without its angle row, and MOTOR is a velocity constraint (beyond
 * nape-symbolic, which had none). Each behaves like the built-in joint of the same name with
 * the same parameters (the tests step them side by side).
 */

export const WELD = `# Weld
body body1, body2
vector anchor1, anchor2
scalar phase
constraint
  let r1 = relative body1.rotation anchor1 in
  let r2 = relative body2.rotation anchor2 in
  { (body2.position + r2) - (body1.position + r1)
    body2.rotation - body1.rotation - phase }
`;

export const DISTANCE = `# Distance
body body1, body2
vector anchor1, anchor2
scalar jointMin, jointMax
limit jointMin 0 jointMax
constraint
  let r1 = relative body1.rotation anchor1 in
  let r2 = relative body2.rotation anchor2 in
  |(body2.position + r2) - (body1.position + r1)|
limit constraint jointMin jointMax
`;

export const LINE = `# Line
body body1, body2
vector anchor1, anchor2, direction
scalar jointMin, jointMax
limit jointMin (-inf) jointMax
limit |direction| eps inf
constraint
  let r1 = relative body1.rotation anchor1 in
  let r2 = relative body2.rotation anchor2 in
  let dir = unit(relative body1.rotation direction) in
  let del = (body2.position + r2) - (body1.position + r1) in
  { dir dot del
    dir cross del }
limit constraint { jointMin 0 } { jointMax 0 }
`;

export const PIVOT = `# Pivot: anchor1 on body1 and anchor2 on body2 stay together
body body1, body2
vector anchor1, anchor2
constraint
  let r1 = relative body1.rotation anchor1 in
  let r2 = relative body2.rotation anchor2 in
  (body2.position + r2) - (body1.position + r1)
`;

export const MOTOR = `# Motor: drives ratio * ω2 - ω1 to rate (a velocity constraint)
body body1, body2
scalar rate, ratio
velocity ratio * body2.angularVel - body1.angularVel - rate
`;
