/**
 * The JavaScript the scripted planner writes in the code arm. The helpers mirror the reference
 * solutions' building blocks (tasks/solutions/steps.ts) as plain synchronous code against `robo`,
 * with the same retries, so one cell carries a whole phase (pick, place, open, …) with its
 * branching inside, instead of one model call per primitive.
 */
export const CELL_HELPERS = String.raw`var TRAVEL_Z = 0.16;
function armOpt(arm) { return arm ? { arm: arm } : {}; }
function locate(query) {
  var r = robo.find(query);
  if (!r.found) throw new Error('"' + query + '" not found');
  return r;
}
function boxGripYaw(objYaw) { var q = Math.PI / 2; return objYaw - q * Math.round(objYaw / q); }
function moveTo(xyz, opts, arm) { return robo.move_to(xyz, Object.assign({}, opts || {}, armOpt(arm))); }
function pickUp(query, arm, liftZ) {
  if (liftZ === undefined) liftZ = TRAVEL_Z;
  for (var attempt = 0; attempt < 3; attempt++) {
    var o = locate(query);
    var x = o.position[0], y = o.position[1], z = o.position[2];
    var half = o.sizeM[2] / 2;
    moveTo([x, y, Math.max(z + half + 0.08, liftZ)], { yaw: boxGripYaw(o.yaw), gripper: 'OPEN' }, arm);
    moveTo([x, y, Math.max(z, 0.026)], { tolM: 0.01 }, arm);
    var g = robo.grasp(armOpt(arm));
    if (g.success) {
      var up = moveTo([x, y, Math.max(liftZ, z + 0.1)], {}, arm);
      var held = locate(o.name);
      return { name: o.name, offsetZ: held.position[2] - up.position[2], halfHeight: half, attempts: attempt + 1 };
    }
    robo.release(armOpt(arm));
    moveTo([x, y, z + half + 0.08], {}, arm);
  }
  throw new Error('could not grasp ' + query);
}
function placeAt(p, center, arm, travelZ) {
  if (travelZ === undefined) travelZ = TRAVEL_Z;
  var tcpZ = center[2] - p.offsetZ;
  moveTo([center[0], center[1], Math.max(travelZ, tcpZ + 0.06)], {}, arm);
  moveTo([center[0], center[1], tcpZ + 0.006], { tolM: 0.008 }, arm);
  robo.release(armOpt(arm));
  return moveTo([center[0], center[1], Math.max(travelZ, tcpZ + 0.08)], {}, arm);
}
`;

export const q = (s: string): string => JSON.stringify(s);

/** Helpers of the later task families (stacking, drawer, two arms), mirroring their TS versions. */
export const CELL_HELPERS_MORE = String.raw`function settle(seconds) { return robo.wait({ seconds: seconds === undefined ? 0.6 : seconds }); }
function stackOn(top, bottom) {
  var picked = pickUp(top);
  var b = locate(bottom);
  placeAt(picked, [b.position[0], b.position[1], b.position[2] + b.sizeM[2] / 2 + picked.halfHeight + 0.005]);
  return picked.name + ' on ' + b.name;
}
function park(arm) { return moveTo([0.45, arm === 'left' ? 0.3 : -0.3, 0.25], {}, arm); }
function openDrawer(pullM) {
  if (pullM === undefined) pullM = 0.16;
  var h = locate('drawer_handle');
  var hx = h.position[0], hy = h.position[1], hz = h.position[2];
  moveTo([hx + 0.045, hy, hz + 0.1], { yaw: 0, gripper: 'CLOSE' });
  moveTo([hx + 0.045, hy, hz - 0.01], { tolM: 0.01 });
  moveTo([hx + 0.045 - pullM, hy, hz - 0.01], { tolM: 0.03 });
  var after = locate('drawer_handle');
  moveTo([after.position[0] + 0.045, hy, hz + 0.1], { tolM: 0.01 });
  return after.position;
}
`;
