import { useEffect } from 'react';
import { electronBridge } from '../../src-shared/electronBridge';
import { notify } from '../store/run';
import { useStudio } from '../store/studio';
import type { EngineClient } from '../transport/client';
import { openEpisode } from './useEngineSync';

/** In the Electron shell: the native menu's episode commands and the shell's engine status. */
export function useShellBridge(client: EngineClient, showLibrary: () => void): void {
  useEffect(() => {
    const bridge = electronBridge();
    if (!bridge) return;
    const offMenu = bridge.onMenuCommand((command) => {
      void (async () => {
        try {
          if (command === 'episode/open') return showLibrary();
          if (command === 'episode/import') {
            const paths = await bridge.openFileDialog({ title: 'Import episode', filters: [{ name: 'Robocell episode', extensions: ['json'] }] });
            if (!paths?.length) return;
            const { episodeId } = await client.request('episode/import-file', { path: paths[0] });
            await openEpisode(client, episodeId);
            return notify('info', `imported ${episodeId}`);
          }
          const episode = useStudio.getState().episode;
          if (!episode) return notify('error', 'open an episode to export it');
          const path = await bridge.saveFileDialog({ title: 'Export episode', defaultPath: `${episode.meta.id}.robocell.json`, filters: [{ name: 'Robocell episode', extensions: ['json'] }] });
          if (!path) return;
          await client.request('episode/export-file', { episodeId: episode.meta.id, path });
          notify('info', `exported to ${path}`);
        } catch (err) {
          notify('error', `${command} failed: ${(err as Error).message}`);
        }
      })();
    });
    const offStatus = bridge.onEngineStatus((s) => {
      if (s.state === 'restarting') notify('error', `the engine stopped (${s.reason}); restarting in ${(s.restartInMs / 1000).toFixed(1)} s`);
      if (s.state === 'failed') notify('error', s.message);
    });
    return () => {
      offMenu();
      offStatus();
    };
  }, [client, showLibrary]);
}
