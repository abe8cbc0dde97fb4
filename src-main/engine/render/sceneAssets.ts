/**
 * The bulk parts of a SceneDescription read from the model: meshes (with their texture coordinates
 * where a geom draws them with a 2D texture), the 2D and cube textures materials use, and the
 * skybox reduced to its mean colour.
 */
import type { SceneMesh, SceneTexture } from '../../../src-shared/scene/description';
import { bytesToBase64, float32ToBase64, uint32ToBase64 } from '../../../src-shared/scene/base64';
import type { SceneModelSource } from './sceneModel';

/** mjNTEXROLE: each material has this many texture slots; slot 1 (mjTEXROLE_RGB) is the colour map. */
const TEX_ROLES = 10;
const TEX_ROLE_RGB = 1;
const TEX_2D = 0;
const TEX_CUBE = 1;
const TEX_SKYBOX = 2;

export function readName(m: SceneModelSource, adr: number): string {
  let s = '';
  for (let i = adr; i < m.names.length; i++) {
    const c = m.names[i];
    if (c === 0) break;
    s += String.fromCharCode(c & 255);
  }
  return s;
}

/** `withTexcoords`: some drawn geom shows this mesh with a 2D texture (only then do its texcoords travel). */
export function extractMesh(m: SceneModelSource, i: number, withTexcoords: boolean): SceneMesh {
  const vadr = m.mesh_vertadr[i],
    vnum = m.mesh_vertnum[i];
  const fadr = m.mesh_faceadr[i],
    fnum = m.mesh_facenum[i];
  const nadr = m.mesh_normaladr[i],
    nnum = m.mesh_normalnum[i];
  const faces = new Uint32Array(fnum * 3);
  const faceNormals = new Uint32Array(fnum * 3);
  let sameIndices = true;
  for (let k = 0; k < fnum * 3; k++) {
    faces[k] = m.mesh_face[fadr * 3 + k];
    faceNormals[k] = m.mesh_facenormal[fadr * 3 + k];
    if (faces[k] !== faceNormals[k]) sameIndices = false;
  }
  const mesh: SceneMesh = {
    id: i,
    name: readName(m, m.name_meshadr[i]),
    vertexCount: vnum,
    faceCount: fnum,
    verticesB64: float32ToBase64(m.mesh_vert.slice(vadr * 3, (vadr + vnum) * 3)),
    facesB64: uint32ToBase64(faces),
    normalsB64: float32ToBase64(m.mesh_normal.slice(nadr * 3, (nadr + nnum) * 3)),
    // MuJoCo 3 usually stores one normal per vertex: then the second index list is the first
    faceNormalsB64: sameIndices ? '' : uint32ToBase64(faceNormals),
  };
  const tadr = m.mesh_texcoordadr[i];
  if (withTexcoords && tadr >= 0) {
    const tnum = m.mesh_texcoordnum[i];
    const faceTex = new Uint32Array(fnum * 3);
    let sameTex = true;
    for (let k = 0; k < fnum * 3; k++) {
      faceTex[k] = m.mesh_facetexcoord[fadr * 3 + k];
      if (faceTex[k] >= tnum) throw new Error(`mesh "${mesh.name}": face corner ${k} uses texcoord ${faceTex[k]} of ${tnum}`);
      if (faceTex[k] !== faces[k]) sameTex = false;
    }
    mesh.texcoordsB64 = float32ToBase64(m.mesh_texcoord.slice(tadr * 2, (tadr + tnum) * 2));
    // .msh and most .obj files keep one texcoord per vertex
    mesh.faceTexcoordsB64 = sameTex ? '' : uint32ToBase64(faceTex);
  }
  return mesh;
}

/**
 * The texture a material's colour comes from, or -1. A skybox-type texture on a material is drawn
 * as a cube texture (render_gl3.c's "cube or skybox" branch).
 */
export function colourTexture(m: SceneModelSource, mat: number): number {
  if (mat < 0) return -1;
  let tex = m.mat_texid[mat * TEX_ROLES + TEX_ROLE_RGB];
  if (tex < 0) tex = m.mat_texid[mat * TEX_ROLES];
  return tex >= 0 && [TEX_2D, TEX_CUBE, TEX_SKYBOX].includes(m.tex_type[tex]) ? tex : -1;
}

/**
 * Whether a texture is 2D, so meshes drawn with it need their texcoords. A cube texture is looked
 * up by object position even on a mesh with texcoords (MuJoCo's GL path would bind the cube map
 * to a 2D target there, which GL refuses; the cube lookup is what the model asks for).
 */
export const is2dTexture = (m: SceneModelSource, tex: number): boolean => tex >= 0 && m.tex_type[tex] === TEX_2D;

export function extractTexture(m: SceneModelSource, i: number): SceneTexture {
  const width = m.tex_width[i],
    height = m.tex_height[i],
    nchannel = m.tex_nchannel[i];
  const adr = m.tex_adr[i];
  return {
    id: i,
    name: readName(m, m.name_texadr[i]),
    type: m.tex_type[i] === TEX_2D ? '2d' : 'cube',
    width,
    height,
    nchannel,
    dataB64: bytesToBase64(m.tex_data.subarray(adr, adr + width * height * nchannel)),
  };
}

export function skyboxMean(m: SceneModelSource): [number, number, number] | null {
  for (let i = 0; i < m.ntex; i++) {
    if (m.tex_type[i] !== TEX_SKYBOX) continue;
    const n = m.tex_width[i] * m.tex_height[i],
      ch = m.tex_nchannel[i],
      adr = m.tex_adr[i];
    if (ch < 3 || n === 0) return null;
    const sum = [0, 0, 0];
    for (let p = 0; p < n; p++) for (let c = 0; c < 3; c++) sum[c] += m.tex_data[adr + p * ch + c];
    return [sum[0] / n / 255, sum[1] / n / 255, sum[2] / n / 255];
  }
  return null;
}
