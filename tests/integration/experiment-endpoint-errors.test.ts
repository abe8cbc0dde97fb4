/**
 * The researcher's broken endpoint, as the CLI meets it: a dead URL and a refused key stop at the
 * preflight with the provider's words and exit 1, recording nothing; an endpoint that answers the
 * preflight and then refuses every episode stops after the first 3 (all the same model error),
 * exits 1 and says so in run, status and list; `experiment retry DIR --errors --base-url URL`
 * reruns those keys against the fixed endpoint, keeping the earlier episodes under attempts/ and
 * recording the endpoint per result and per run. Re-running the spec with another field is refused
 * naming the field; with only another endpoint it is accepted.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModel } from '../../src-main/engine/agent/models';
import { defaultOfflineModel } from '../../src-main/engine/experiments/setup';
import { packageRoot } from '../../src-main/engine/paths';
import { startModelServer, type ModelServer } from '../../src-main/engine/modelServer/server';

const root = mkdtempSync(join(tmpdir(), 'robocell-exp-endpoint-'));
const env = { ...process.env, ROBOCELL_MUJOCO_QUIET: '1', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: '' };
/** The CLI without blocking this process: the servers below answer from its event loop. */
function cli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/robocell.mjs', ...args], { cwd: packageRoot(), env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d.toString()));
    child.stderr.on('data', (d) => (stderr += d.toString()));
    child.once('exit', (status) => resolve({ status, stdout, stderr }));
  });
}
const lines = (file: string) =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];

const REFUSAL = {
  error: {
    message: 'Incorrect API key provided: sk-test. You can find your API key at https://example.test/keys.',
    type: 'invalid_request_error',
    code: 'invalid_api_key',
  },
};
/** An endpoint that answers its first `answered` requests as a chat model would ("OK"), then refuses the key. */
async function refusingServer(answered: number): Promise<{ server: Server; url: string; requests: () => number }> {
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      n++;
      if (n <= answered) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: `c${n}`,
            object: 'chat.completion',
            created: 0,
            model: 'gpt-4o-mini',
            choices: [{ index: 0, message: { role: 'assistant', content: 'OK' }, finish_reason: 'stop', logprobs: null }],
            usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
          }),
        );
        return;
      }
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify(REFUSAL));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests: () => n };
}

// The drawer task: 2 seeds × 2 arms = 4 episodes (the offline agent solves each).
const SPEC = ['--tasks', 'ar-open-drawer', '--seeds', '0-1', '--cameras', 'none', '--model', 'gpt-4o-mini', '--jobs', '1'];
let fixed: ModelServer;
const servers: Server[] = [];
beforeAll(async () => {
  fixed = await startModelServer({ planner: createModel({ name: defaultOfflineModel() }, {}) });
});
afterAll(async () => {
  await fixed?.close();
  for (const s of servers) s.close();
  rmSync(root, { recursive: true, force: true });
});

describe('a broken endpoint or key', () => {
  it('a dead URL stops at the preflight with the connection error, exit 1, nothing recorded', async () => {
    const dir = join(root, 'dead');
    const r = await cli(['experiment', 'run', ...SPEC, '--base-url', 'http://127.0.0.1:9/v1', '--out', dir]);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(
      /stopped: preflight: the endpoint did not answer a test request \(3 tries\), so no episode was run: cannot reach http:\/\/127\.0\.0\.1:9\/v1/,
    );
    expect(r.stdout).toMatch(/Fix the endpoint or key, then: robocell experiment resume .* \[--base-url URL\]/);
    expect(r.stdout).not.toMatch(/Success on/);
    expect(lines(join(dir, 'results.jsonl'))).toHaveLength(0);
    expect(lines(join(dir, 'sessions.jsonl'))[0]).toMatchObject({ end: 'failed', baseUrl: 'http://127.0.0.1:9/v1' });

    // The endpoint is not part of the spec's identity: resume with the fixed URL runs it.
    const resumed = await cli(['experiment', 'resume', dir, '--base-url', fixed.baseUrl, '--json']);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/endpoint changed from http:\/\/127\.0\.0\.1:9\/v1 to http:\/\/127\.0\.0\.1:\d+\/v1/);
    const results = lines(join(dir, 'results.jsonl'));
    expect(results).toHaveLength(4);
    expect(results.every((x) => x.baseUrl === fixed.baseUrl && x.success === true)).toBe(true);
  });

  it("a refused key stops at the preflight with the 401 in the provider's words", async () => {
    const bad = await refusingServer(0);
    servers.push(bad.server);
    const dir = join(root, 'badkey');
    const r = await cli(['experiment', 'run', ...SPEC, '--base-url', bad.url, '--out', dir]);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/preflight: .*the server refused the API key \(401\).*Incorrect API key provided/);
    expect(bad.requests()).toBe(1);
    expect(lines(join(dir, 'results.jsonl'))).toHaveLength(0);
  });

  it('episodes that all fail at the endpoint stop the run early; status, list and retry --errors', async () => {
    // The preflight is answered, every episode's call is refused.
    const flaky = await refusingServer(1);
    servers.push(flaky.server);
    const dir = join(root, 'flaky');
    const r = await cli(['experiment', 'run', ...SPEC, '--base-url', flaky.url, '--out', dir]);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/stopped: stopped early: the first 3 episodes of this run all ended in the same model error/);
    expect(r.stderr).toMatch(
      /errors: 3 model errors in 3 of 3 recorded episodes \(first: .*401.*\); once the endpoint or key is fixed: robocell experiment retry .* --errors/,
    );
    const recorded = lines(join(dir, 'results.jsonl'));
    expect(recorded).toHaveLength(3);
    expect(recorded.every((x) => x.finish === 'model-error' && x.baseUrl === flaky.url)).toBe(true);

    const status = await cli(['experiment', 'status', dir]);
    expect(status.stdout).toMatch(/errors: 3 model errors in 3 of 3 recorded episodes/);
    const list = await cli(['experiment', 'list', '--root', root]);
    expect(list.stdout).toMatch(/3\/4 {2}\(3 model\/engine errors: experiment retry --errors\)/);

    // Another seed list is another experiment: refused, naming the field; the endpoint alone is not.
    const other = await cli(['experiment', 'run', ...SPEC.map((a) => (a === '0-1' ? '0-2' : a)), '--base-url', flaky.url, '--out', dir]);
    expect(other.status).toBe(2);
    expect(other.stderr).toMatch(/holds an experiment with another spec \(seeds \[0,1\] \(recorded\) vs \[0,1,2\] \(given\)\)/);

    const retry = await cli(['experiment', 'retry', dir, '--errors', '--base-url', fixed.baseUrl, '--json']);
    expect(retry.status, retry.stderr).toBe(0);
    expect(retry.stderr).toMatch(
      /retrying 3 episodes \(3 model errors\); the earlier episodes are kept under .*attempts\/ and listed in attempts.jsonl as 'retried'/,
    );
    const after = lines(join(dir, 'results.jsonl'));
    expect(after).toHaveLength(4);
    expect(after.every((x) => x.success === true && x.baseUrl === fixed.baseUrl)).toBe(true);
    const retried = lines(join(dir, 'attempts.jsonl')).filter((a) => a.outcome === 'retried');
    expect(retried).toHaveLength(3);
    for (const a of retried) {
      expect(a.detail).toMatch(/^model-error \(model-error\): .*401/);
      expect(existsSync(join(dir, a.folder as string, 'events.jsonl')) || existsSync(join(dir, a.folder as string))).toBe(true);
    }
    const sessions = lines(join(dir, 'sessions.jsonl'));
    expect(sessions.map((s) => s.baseUrl)).toEqual([flaky.url, fixed.baseUrl]);
    // Nothing left to retry.
    const again = await cli(['experiment', 'retry', dir, '--errors']);
    expect(again.status).toBe(0);
    expect(again.stderr).toMatch(/nothing to retry/);
  });
});

describe('the call caps and CLI errors', () => {
  it('the old --max-calls is read as --experiment-max-calls with a note; a --task typo is answered with --tasks', async () => {
    const dir = join(root, 'capped');
    const r = await cli(['experiment', 'run', '--tasks', 'ar-open-drawer', '--seeds', '0', '--cameras', 'none', '--max-calls', '3', '--out', dir]);
    expect(r.stderr).toMatch(/--max-calls is now --experiment-max-calls \(model calls in the whole experiment\); read as --experiment-max-calls 3/);
    expect(r.stderr).toMatch(/stopped at --experiment-max-calls 3/);
    expect(r.status).toBe(3);

    const typo = await cli(['experiment', 'run', '--task', 'ar-open-drawer', '--seeds', '0']);
    expect(typo.status).toBe(2);
    expect(typo.stderr.trim().split('\n')).toEqual([
      'robocell experiment: unknown option --task; did you mean --tasks?',
      '(`robocell experiment --help` describes every option)',
    ]);
    const missing = await cli(['experiment', 'run', '--seeds', '0']);
    expect(missing.stderr.trim().split('\n')).toHaveLength(2);

    const single = await cli(['run', '--task', 'ar-open-drawer', '--arm', 'code', '--cameras', 'none', '--max-calls', '1', '--no-render']);
    expect(single.stderr).toMatch(/--max-calls is now --episode-max-calls \(model calls per episode\)/);
  });
});
