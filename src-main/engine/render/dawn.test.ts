import { describe, expect, it } from 'vitest';
import { softwareOnlyVulkanDrivers } from './dawn';

/** A file system of the given paths: directories list the names below them. */
function fs(paths: string[]) {
  const hasPath = (p: string) => paths.some((q) => q === p || q.startsWith(p + '/'));
  const list = (dir: string) => [...new Set(paths.filter((q) => q.startsWith(dir + '/')).map((q) => q.slice(dir.length + 1).split('/')[0]))];
  return { hasPath, list };
}

const ICDS = ['/usr/share/vulkan/icd.d/lvp_icd.json', '/usr/share/vulkan/icd.d/radeon_icd.json', '/usr/share/vulkan/icd.d/intel_icd.json'];

describe('softwareOnlyVulkanDrivers', () => {
  it('selects lavapipe alone on a Linux machine without render nodes', () => {
    const { hasPath, list } = fs(ICDS);
    expect(softwareOnlyVulkanDrivers({}, 'linux', hasPath, list)).toBe('*lvp_icd*');
    // a /dev/dri holding only a display node (card0) renders nothing either
    const withCard = fs([...ICDS, '/dev/dri/card0']);
    expect(softwareOnlyVulkanDrivers({}, 'linux', withCard.hasPath, withCard.list)).toBe('*lvp_icd*');
  });

  it('leaves the loader alone where a GPU render node exists', () => {
    const { hasPath, list } = fs([...ICDS, '/dev/dri/card0', '/dev/dri/renderD128']);
    expect(softwareOnlyVulkanDrivers({}, 'linux', hasPath, list)).toBeNull();
  });

  it('leaves the loader alone where lavapipe is not installed', () => {
    const { hasPath, list } = fs(['/usr/share/vulkan/icd.d/radeon_icd.json']);
    expect(softwareOnlyVulkanDrivers({}, 'linux', hasPath, list)).toBeNull();
  });

  it("keeps the user's own choice of drivers", () => {
    const { hasPath, list } = fs(ICDS);
    for (const k of ['VK_ICD_FILENAMES', 'VK_DRIVER_FILES', 'VK_ADD_DRIVER_FILES', 'VK_LOADER_DRIVERS_SELECT', 'VK_LOADER_DRIVERS_DISABLE']) {
      expect(softwareOnlyVulkanDrivers({ [k]: '/x/y.json' }, 'linux', hasPath, list), k).toBeNull();
    }
  });

  it('does nothing off Linux', () => {
    const { hasPath, list } = fs(ICDS);
    expect(softwareOnlyVulkanDrivers({}, 'darwin', hasPath, list)).toBeNull();
    expect(softwareOnlyVulkanDrivers({}, 'win32', hasPath, list)).toBeNull();
  });
});
