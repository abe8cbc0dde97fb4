import { useEffect, useState } from 'react';
import type { EndpointSettings } from '../../src-shared/protocol';
import { useClient } from '../app/clientContext';
import { notify } from '../store/run';

/** The OpenAI-compatible endpoint. The API key is write-only: the engine keeps it and never sends it back. */
export function SettingsDialog({ onClose, onSaved }: { onClose(): void; onSaved(e: EndpointSettings): void }) {
  const client = useClient();
  const [endpoint, setEndpoint] = useState<EndpointSettings | null>(null);
  const [episodesDir, setEpisodesDir] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  /** Set when saving moved the endpoint to another origin: the engine dropped the old key. */
  const [keyCleared, setKeyCleared] = useState<string | null>(null);
  useEffect(() => {
    client.request('settings/get', {}).then((s) => (setEndpoint(s.endpoint), setEpisodesDir(s.episodesDir)), (err: Error) => setError(err.message));
  }, [client]);
  if (!endpoint) return null;
  const save = async () => {
    try {
      const r = await client.request('settings/set', { baseUrl: endpoint.baseUrl, model: endpoint.model, imageDetail: endpoint.imageDetail, ...(apiKey ? { apiKey } : {}) });
      setApiKey('');
      onSaved(r.endpoint);
      if (r.apiKeyCleared) {
        // Stay open and ask: the key saved for the old host is never sent to the new one.
        setEndpoint(r.endpoint);
        setKeyCleared(new URL(r.endpoint.baseUrl || 'https://api.openai.com').origin);
        return;
      }
      notify('info', 'settings saved');
      onClose();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <div className="dialog-backdrop" onClick={onClose}>
      <div className="dialog" onClick={(e) => e.stopPropagation()} data-testid="settings-dialog" role="dialog" aria-label="Settings">
        <h3>Model endpoint</h3>
        <p className="muted small">Any OpenAI-compatible Chat Completions endpoint: OpenAI, Azure, vLLM, Ollama, LM Studio, OpenRouter.</p>
        <label>Base URL <input value={endpoint.baseUrl} onChange={(e) => setEndpoint({ ...endpoint, baseUrl: e.target.value })} data-testid="settings-base-url" /></label>
        <label>Model <input value={endpoint.model} onChange={(e) => setEndpoint({ ...endpoint, model: e.target.value })} data-testid="settings-model" /></label>
        <label>Image detail
          <select value={endpoint.imageDetail} onChange={(e) => setEndpoint({ ...endpoint, imageDetail: e.target.value as EndpointSettings['imageDetail'] })}>
            <option value="low">low (85 tokens an image)</option>
            <option value="high">high (tiles)</option>
            <option value="auto">auto</option>
          </select>
        </label>
        <label>API key
          <input type="password" autoComplete="off" value={apiKey} placeholder={endpoint.hasApiKey ? `saved for ${endpoint.apiKeyOrigin ?? 'this endpoint'} — type to replace` : 'not set'} onChange={(e) => setApiKey(e.target.value)} autoFocus={keyCleared !== null} data-testid="settings-api-key" />
        </label>
        {keyCleared && (
          <p className="bad" data-testid="settings-key-cleared">
            The endpoint now points at {keyCleared}, so the saved API key was removed (it is only ever sent to the host it was saved for). Type the key for this endpoint, or leave it empty if it needs none.
          </p>
        )}
        <p className="muted small">Episodes are saved in <code>{episodesDir}</code>.</p>
        {error && <p className="bad">{error}</p>}
        <div className="dialog-buttons">
          <button onClick={onClose}>Cancel</button>
          <button className="primary" onClick={() => void save()} data-testid="settings-save">Save</button>
        </div>
      </div>
    </div>
  );
}
