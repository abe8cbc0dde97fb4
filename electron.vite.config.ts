import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

// electron-vite builds the shell (main + preload) and the renderer. The engine and CLI are plain
// Node entries built by scripts/build-node.mjs, because the engine never runs inside Electron.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // package.json "main" points here.
      lib: { entry: resolve('src-main/electron/main.ts') },
      rollupOptions: { output: { entryFileNames: 'index.js' } },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload cannot be an ES module: CommonJS, named .cjs because package.json says "module".
      lib: { entry: resolve('src-main/electron/preload.ts'), formats: ['cjs'] },
      rollupOptions: { output: { entryFileNames: 'preload.cjs' } },
    },
  },
  renderer: {
    root: resolve('src-renderer'),
    base: './',
    plugins: [react()],
    build: {
      outDir: resolve('out/renderer'),
      emptyOutDir: true,
      chunkSizeWarningLimit: 8_000,
      rollupOptions: { input: resolve('src-renderer/index.html') },
    },
  },
});
