import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectModelFiles, compileModel, MemfsDir, SimLoadError } from './load';
import { getMujoco, recordMujocoOutput, type MainModule } from './mujoco';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'robocell-load-unit-'));
  for (const d of ['assets', 'sky', 'deep/er']) mkdirSync(join(dir, d), { recursive: true });
  for (const side of ['r', 'l', 'u', 'd', 'f', 'b']) writeFileSync(join(dir, 'sky', `${side}.png`), 'png');
  writeFileSync(join(dir, 'assets', 'm.obj'), 'obj');
  writeFileSync(join(dir, 'assets', 'h.png'), 'png');
  writeFileSync(join(dir, 'deep/er', 'flat.stl'), 'stl');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('collectModelFiles', () => {
  it('uses assetdir for meshes and height fields, texturedir for textures, and every cube-map side', () => {
    writeFileSync(
      join(dir, 'a.xml'),
      `<mujoco><compiler assetdir="assets" texturedir="sky"/><asset>
        <mesh file="m.obj"/><hfield name="h" file='h.png'/>
        <texture type="skybox" fileright="r.png" fileleft="l.png" fileup="u.png" filedown="d.png" filefront="f.png" fileback="b.png"/>
      </asset></mujoco>`,
    );
    const files = [...collectModelFiles(join(dir, 'a.xml')).keys()].map((f) => f.slice(dir.length + 1)).sort();
    expect(files).toEqual(['a.xml', 'assets/h.png', 'assets/m.obj', ...['b', 'd', 'f', 'l', 'r', 'u'].map((s) => `sky/${s}.png`)]);
  });

  it('honours strippath', () => {
    writeFileSync(join(dir, 'b.xml'), `<mujoco><compiler strippath="true" meshdir="deep/er"/><asset><mesh file="some/where/flat.stl"/></asset></mujoco>`);
    expect([...collectModelFiles(join(dir, 'b.xml')).keys()]).toContain(join(dir, 'deep/er/flat.stl'));
  });

  it('names the missing texture side', () => {
    writeFileSync(join(dir, 'c.xml'), `<mujoco><asset><texture name="sky" type="skybox" fileup="nope.png"/></asset></mujoco>`);
    expect(() => collectModelFiles(join(dir, 'c.xml'))).toThrow(/missing texture file .*nope\.png \(fileup="nope.png" of texture "sky"\)/);
  });

  it('rejects an include without a file', () => {
    writeFileSync(join(dir, 'd.xml'), `<mujoco><include/></mujoco>`);
    expect(() => collectModelFiles(join(dir, 'd.xml'))).toThrow(/<include> without a file attribute/);
  });
});

describe('compileModel turns every failure shape into SimLoadError', () => {
  async function fake(fromXmlPath: () => unknown, extra: Record<string, unknown> = {}): Promise<{ mj: MainModule; dir: MemfsDir }> {
    const real = await getMujoco();
    const mj = { FS: real.FS, MjModel: { from_xml_path: fromXmlPath }, ...extra } as unknown as MainModule;
    return { mj, dir: new MemfsDir(real) };
  }

  it('a null model with the reason only on stdout', async () => {
    const { mj, dir: d } = await fake(() => {
      recordMujocoOutput(`XML Error: unexpected end in ${d.path}/scene.xml`);
      return null;
    });
    const e = (() => {
      try {
        compileModel(mj, `${d.path}/scene.xml`, d, '/disk/scene.xml');
      } catch (err) {
        return err;
      }
    })();
    d.remove();
    expect(e).toBeInstanceOf(SimLoadError);
    expect((e as SimLoadError).reason).toBe('XML Error: unexpected end in /scene.xml');
  });

  it('a message-less C++ exception, read through the module', async () => {
    const { mj, dir: d } = await fake(
      () => {
        throw 123456; // emscripten throws the exception's pointer
      },
      { getExceptionMessage: (ptr: number) => ['std::runtime_error', `mesh volume is too small (${ptr})`] },
    );
    expect(() => compileModel(mj, `${d.path}/x.xml`, d, 'x.xml')).toThrow(/cannot load MJCF x\.xml: std::runtime_error: mesh volume is too small \(123456\)/);
    d.remove();
  });

  it('nothing at all still says which file', async () => {
    const { mj, dir: d } = await fake(() => null);
    expect(() => compileModel(mj, `${d.path}/x.xml`, d, 'x.xml')).toThrow(/cannot load MJCF x\.xml: MuJoCo rejected the model without a message/);
    d.remove();
  });
});
