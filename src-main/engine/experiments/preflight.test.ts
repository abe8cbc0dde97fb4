/**
 * The preflight asks again after a failure the endpoint's moment may explain (a 503, a 429, a
 * malformed reply) and stops at once on one that names the request (a refused key), through the
 * real adapter against a server on 127.0.0.1.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PREFLIGHT_ATTEMPTS, preflightEndpoint } from './preflight';

const OK = JSON.stringify({
  id: 'c1',
  object: 'chat.completion',
  created: 0,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'OK' }, finish_reason: 'stop', logprobs: null }],
  usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
});

type Answer = { status: number; body: string; headers?: Record<string, string> };
const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** A server answering its n-th request with answers[n] (the last one from then on). */
async function serve(answers: Answer[]): Promise<{ url: string; requests: () => number }> {
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const a = answers[Math.min(n++, answers.length - 1)];
      res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
      res.end(a.body);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests: () => n };
}

const env = { OPENAI_API_KEY: 'sk-test' };
const model = (baseUrl: string) => ({ name: 'gpt-4o-mini', baseUrl });
const NO_WAIT = [0];

describe('preflightEndpoint', () => {
  it('answers null when a 503 and then a malformed reply are followed by an answer', async () => {
    const s = await serve([
      { status: 503, body: JSON.stringify({ error: { message: 'overloaded', type: 'server_error' } }) },
      { status: 200, body: '{"id": "c1", "choices": [' },
      { status: 200, body: OK },
    ]);
    expect(await preflightEndpoint(model(s.url), env, NO_WAIT)).toBeNull();
    expect(s.requests()).toBe(3);
  });

  it('stops after its attempts when the endpoint keeps answering 429, by its status whatever numbers its text holds, with the last message', async () => {
    const s = await serve([
      {
        status: 429,
        body: JSON.stringify({ error: { message: 'Rate limit reached for requests: 400 requests per minute (upstream 404 counts too)', type: 'requests' } }),
        headers: { 'retry-after': '0' },
      },
    ]);
    const why = await preflightEndpoint(model(s.url), env, NO_WAIT);
    expect(s.requests()).toBe(PREFLIGHT_ATTEMPTS);
    expect(why).toMatch(/^preflight: the endpoint did not answer a test request \(3 tries\), so no episode was run: .*429.*Rate limit reached/);
  });

  it('stops at the first refused key without asking again', async () => {
    const s = await serve([
      {
        status: 401,
        body: JSON.stringify({ error: { message: 'Incorrect API key provided: sk-test.', type: 'invalid_request_error', code: 'invalid_api_key' } }),
      },
    ]);
    const why = await preflightEndpoint(model(s.url), env, NO_WAIT);
    expect(s.requests()).toBe(1);
    expect(why).toMatch(/^preflight: the endpoint did not answer a test request, so no episode was run: the server refused the API key \(401\)/);
  });
});
