/** A small MJCF for the sim tests: free bodies falling onto a plane plus a two-hinge arm with position servos. */
export const TEST_MJCF = `
<mujoco model="sim-test">
  <option timestep="0.002" integrator="implicitfast" cone="elliptic"/>
  <worldbody>
    <light pos="0 0 3" dir="0 0 -1" directional="true"/>
    <geom name="floor" type="plane" size="2 2 0.1"/>
    <body name="box" pos="0.4 0 0.5" euler="10 20 30"><freejoint/><geom type="box" size="0.04 0.03 0.02" mass="0.2"/></body>
    <body name="ball" pos="0.45 0.1 0.8"><freejoint/><geom type="sphere" size="0.03" mass="0.1"/></body>
    <body name="pill" pos="0.35 -0.1 1.1" euler="0 80 0"><freejoint/><geom type="capsule" size="0.02 0.05" mass="0.1"/></body>
    <body name="base" pos="-0.4 0 0.3">
      <joint name="shoulder" type="hinge" axis="0 1 0" damping="0.5"/>
      <geom type="capsule" fromto="0 0 0 0.25 0 0" size="0.02" contype="0" conaffinity="0"/>
      <body name="forearm" pos="0.25 0 0">
        <joint name="elbow" type="hinge" axis="0 1 0" damping="0.5"/>
        <geom type="capsule" fromto="0 0 0 0.2 0 0" size="0.015" contype="0" conaffinity="0"/>
        <site name="tip" pos="0.2 0 0"/>
      </body>
    </body>
  </worldbody>
  <actuator>
    <position name="shoulder" joint="shoulder" kp="50" ctrlrange="-3 3"/>
    <position name="elbow" joint="elbow" kp="30" ctrlrange="-3 3"/>
  </actuator>
  <keyframe>
    <key name="home" qpos="0.4 0 0.5 1 0 0 0  0.45 0.1 0.8 1 0 0 0  0.35 -0.1 1.1 1 0 0 0  0.3 -0.6" ctrl="0.3 -0.6"/>
  </keyframe>
</mujoco>`;
