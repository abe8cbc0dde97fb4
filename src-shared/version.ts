/** Bumped whenever a frame's shape changes incompatibly; the UI refuses a mismatched engine. */
export const PROTOCOL_VERSION = 4;
export const ENGINE_VERSION = '0.1.0';
