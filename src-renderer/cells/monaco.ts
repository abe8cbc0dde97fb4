/**
 * Monaco, bundled locally (no CDN loader): only the editor core, the JavaScript and Python grammars and the
 * editor worker, so the studio works offline and under a strict CSP.
 */
import * as monaco from 'monaco-editor/editor/editor.api';
import 'monaco-editor/features/register.all';
import 'monaco-editor/languages/definitions/javascript/register';
import 'monaco-editor/languages/definitions/python/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';

declare global {
  interface Window {
    MonacoEnvironment?: monaco.Environment;
  }
}

window.MonacoEnvironment = { getWorker: () => new EditorWorker() };

monaco.editor.defineTheme('robocell-dark', {
  base: 'vs-dark',
  inherit: true,
  rules: [],
  colors: { 'editor.background': '#181b21', 'editorGutter.background': '#181b21' },
});

export { monaco };
