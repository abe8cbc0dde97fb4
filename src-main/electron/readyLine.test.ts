import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatReadyLine } from '../../src-shared/readyLine';
import { ReadyLineError, ReadyLineParser, waitForReadyLine } from './readyLine';

describe('ReadyLineParser', () => {
  it("reads the line the engine's serve command formats", () => {
    const line = formatReadyLine({ port: 40123, pid: 77 });
    expect(line.endsWith('\n')).toBe(true);
    expect(new ReadyLineParser().push(line)).toEqual({ port: 40123, pid: 77 });
  });

  it('the engine cannot format a ready line its shell would refuse', () => {
    expect(() => formatReadyLine({ port: 0, pid: 77 })).toThrow();
    expect(() => formatReadyLine({ port: 80.5, pid: 77 })).toThrow();
    expect(() => formatReadyLine({ port: 80, pid: -1 })).toThrow();
  });

  it('skips noise before the ready line and reports it', () => {
    const noise: string[] = [];
    const parser = new ReadyLineParser((l) => noise.push(l));
    expect(parser.push('(node:123) ExperimentalWarning: something\n\n')).toBeNull();
    expect(parser.push('{"level":"info","msg":"loading"}\n')).toBeNull();
    expect(parser.push('{"ready":{"port":40123,"pid":77}}\n')).toEqual({ port: 40123, pid: 77 });
    expect(noise).toEqual(['(node:123) ExperimentalWarning: something', '{"level":"info","msg":"loading"}']);
  });

  it('joins a ready line split across chunks, even inside a multi-byte character', () => {
    const parser = new ReadyLineParser();
    const bytes = Buffer.from('héllo\n{"ready":{"port":5,"pid":6}}\r\n');
    // Cut between the two bytes of "é" and in the middle of the JSON.
    expect(parser.push(bytes.subarray(0, 2))).toBeNull();
    expect(parser.push(bytes.subarray(2, 20))).toBeNull();
    expect(parser.push(bytes.subarray(20))).toEqual({ port: 5, pid: 6 });
  });

  it('returns the ready info once and passes later lines to onNoise', () => {
    const noise: string[] = [];
    const parser = new ReadyLineParser((l) => noise.push(l));
    expect(parser.push('{"ready":{"port":1,"pid":2}}\nafter\n')).toEqual({ port: 1, pid: 2 });
    expect(parser.push('{"ready":{"port":3,"pid":4}}\n')).toBeNull();
    expect(parser.ready).toEqual({ port: 1, pid: 2 });
    expect(noise).toEqual(['after', '{"ready":{"port":3,"pid":4}}']);
  });

  it('rejects malformed JSON', () => {
    expect(() => new ReadyLineParser().push('{"ready":{"port":12\n')).toThrow(/malformed JSON on the engine's stdout/);
  });

  it('rejects a ready line with a wrong shape, naming the field', () => {
    expect(() => new ReadyLineParser().push('{"ready":{"port":"12","pid":3}}\n')).toThrow(/invalid at ready\.port/);
    expect(() => new ReadyLineParser().push('{"ready":{"port":70000,"pid":3}}\n')).toThrow(/ready\.port/);
    expect(() => new ReadyLineParser().push('{"ready":null}\n')).toThrow(ReadyLineError);
  });

  it('gives up on an endless line before the ready line', () => {
    expect(() => new ReadyLineParser().push('x'.repeat(70_000))).toThrow(/without a line break/);
  });
});

describe('waitForReadyLine', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('resolves from a stream and keeps forwarding later output', async () => {
    const stdout = new PassThrough();
    const noise: string[] = [];
    const ready = waitForReadyLine(stdout, { timeoutMs: 5000, onNoise: (l) => noise.push(l) });
    stdout.write('booting\n{"ready":{"po');
    stdout.write('rt":8080,"pid":9}}\n');
    await expect(ready).resolves.toEqual({ port: 8080, pid: 9 });
    stdout.write('late line\n');
    await new Promise((r) => setImmediate(r));
    expect(noise).toEqual(['booting', 'late line']);
  });

  it('times out with a clear error', async () => {
    vi.useFakeTimers();
    const stdout = new PassThrough();
    const ready = waitForReadyLine(stdout, { timeoutMs: 1000 });
    stdout.write('still loading\n');
    vi.advanceTimersByTime(999);
    const settled = vi.fn();
    ready.then(settled, settled);
    await Promise.resolve();
    expect(settled).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    await expect(ready).rejects.toThrow('the engine printed no ready line within 1000 ms');
    await expect(ready).rejects.toMatchObject({ kind: 'timeout' });
  });

  it('rejects when stdout ends before the ready line', async () => {
    const stdout = new PassThrough();
    const ready = waitForReadyLine(stdout, { timeoutMs: 5000 });
    stdout.end('Error: cannot find module\n');
    stdout.resume();
    await expect(ready).rejects.toThrow(/closed its stdout .* before printing its ready line/);
    await expect(ready).rejects.toMatchObject({ kind: 'ended' });
  });

  it('rejects malformed JSON from the stream', async () => {
    const stdout = new PassThrough();
    const ready = waitForReadyLine(stdout, { timeoutMs: 5000 });
    stdout.write('{not json}\n');
    await expect(ready).rejects.toThrow(ReadyLineError);
    await expect(ready).rejects.toMatchObject({ kind: 'malformed' });
  });
});
