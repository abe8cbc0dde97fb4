/**
 * A damaged episode in the Library, as a researcher meets it: a folder whose events.jsonl has a
 * cut line and an unknown event type is listed (not hidden) with the bad lines named in its row,
 * opening it says the same, and it can still be exported and deleted.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactPath } from '../helpers/browser';
import { ROOT } from '../helpers/engine';
import { openStudio, type OpenStudio } from '../helpers/studio';

// The bundled tool-arm example (its folder name changes whenever the examples are regenerated).
const DEMO = readdirSync(join(ROOT, 'assets', 'demo-episodes')).find((d) => /-tools-[0-9a-f]+$/.test(d))!;
const DAMAGED = '20261201T120000Z-st-tower-three-default-s0-tools-d4a4a6';
const PROBLEM = 'events.jsonl line 4: not valid JSON (at character 18); line 6: type: not a known event type';

describe('a damaged episode in the Library', () => {
  let studio: OpenStudio;
  let page: Page;
  let root: string;
  let episodesDir: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'rc-e2e-library-problems-'));
    episodesDir = join(root, 'episodes');
    // A user's copy of the bundled tool-arm example, damaged the way a crash or a bad edit leaves it.
    const dir = join(episodesDir, DAMAGED);
    cpSync(join(ROOT, 'assets', 'demo-episodes', DEMO), dir, { recursive: true });
    rmSync(join(dir, 'studio.json'));
    const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'meta.json'), JSON.stringify({ ...meta, id: DAMAGED }, null, 2));
    const lines = readFileSync(join(dir, 'events.jsonl'), 'utf8').split('\n').filter(Boolean);
    lines[3] = '{"type":"action",';
    lines[5] = '{"type":"warp","t":1}';
    writeFileSync(join(dir, 'events.jsonl'), lines.map((l) => l + '\n').join(''));

    studio = await openStudio('library-problems', { viewport: { width: 1440, height: 900 }, acceptDownloads: true, episodesDir });
    page = studio.page;
  });
  afterAll(async () => {
    await studio?.close();
  });

  it('lists it with the bad lines named, says the same on opening, and still exports and deletes it', async () => {
    await page.getByTestId('tab-library').click();
    const row = page.locator(`[data-testid="episode-row"][data-episode-id="${DAMAGED}"]`);
    await row.waitFor();
    // The verdict's line parsed, so how it ended is still known; the rows that read well say nothing.
    await expect(row.getAttribute('data-outcome')).resolves.toBe('success');
    await expect(row.getByTestId('row-problem').textContent()).resolves.toBe(`Cannot be opened: ${PROBLEM}. Listed from the lines that can be read.`);
    await expect(page.getByTestId('row-problem').count()).resolves.toBe(1);
    await expect(row.getByTestId('row-problem').textContent()).resolves.not.toContain(root);
    // The problem wraps inside the Library pane instead of running past it.
    const problem = await row.getByTestId('row-problem').boundingBox();
    const pane = await page.getByTestId('pane-run').boundingBox();
    expect(problem && pane && problem.x + problem.width <= pane.x + pane.width + 0.5).toBe(true);
    await page.screenshot({ path: artifactPath('library-1-damaged-row.png') });

    await row.locator('.episode-main').click();
    const notice = page.getByTestId('notice').filter({ hasText: `could not open ${DAMAGED}` });
    await notice.waitFor({ timeout: 30_000 });
    // The same words as the row, without the library folder's path.
    await expect(notice.textContent()).resolves.toContain(`could not open ${DAMAGED}: ${PROBLEM}`);
    await expect(notice.textContent()).resolves.not.toContain(root);
    await expect(page.locator(`[data-testid="episode-title"][data-episode-id="${DAMAGED}"]`).count()).resolves.toBe(0);
    await page.screenshot({ path: artifactPath('library-2-damaged-open.png') });

    // Nothing recorded is lost: the export carries the lines as they are on disk.
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByTestId('export').click()]);
    const exported = join(root, download.suggestedFilename());
    await download.saveAs(exported);
    const bundle = JSON.parse(readFileSync(exported, 'utf8')) as { meta: { id: string } };
    expect(bundle.meta.id).toBe(DAMAGED);
    expect(readFileSync(exported, 'utf8')).toContain('warp');

    await row.getByTestId('delete').click();
    await row.getByTestId('delete-confirm').click();
    await row.waitFor({ state: 'detached', timeout: 30_000 });
    expect(existsSync(join(episodesDir, DAMAGED))).toBe(false);
  });
});
