/**
 * The web console's LLM pages in a real browser (Debian's Chromium) against `pnpm start` on
 * embedded defaults, its OpenAI calls going to the local OpenAI stand-in: a builder sets a vendor
 * key, limits and fallbacks, makes completions through @platform/client with the project's keys,
 * and sees them in the usage charts and the logs; a viewer sees the same pages without a write.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createClient } from '@platform/client';
import { browserAvailable, type HttpStub } from '@platform/testkit';
import { startOpenAiStandIn } from '../harness/stand-ins';
import { ARTIFACTS, browserJourney, PASSWORD } from './browser-journey';

const run = browserAvailable() ? describe : describe.skip;
const VENDOR_KEY = 'sk-console-llm-journey-0001';

/** A project made through the console, with the key pair shown once at its creation. */
interface ConsoleProject {
  orgId: string;
  projectId: string;
  publicKey: string;
  secretKey: string;
}

run('the web console: LLM pages', () => {
  let openai: HttpStub;
  // Before the journey's own beforeAll, which starts the platform with the stand-in's address.
  beforeAll(async () => {
    openai = await startOpenAiStandIn();
  });
  afterAll(() => openai?.close());
  const journey = browserJourney('llm', () => ({ OPENAI_BASE_URL: openai.url }));
  const { step, expectAccessible, visit } = journey;
  const page = () => journey.page;
  let project: ConsoleProject;
  const owner = `llm-owner-${Date.now()}@example.com`;
  const viewer = `llm-viewer-${Date.now()}@example.com`;
  const llmPage = (sub = '') => `/orgs/${project.orgId}/projects/${project.projectId}/llm${sub}`;

  /** A new member who signs up and makes an organisation and a project: its ids and first key pair. */
  async function ownerWithProject(email: string, organisation: string, name: string): Promise<ConsoleProject> {
    await visit('/sign-up');
    await page().getByLabel('E-mail').fill(email);
    await page().getByLabel('Password').fill(PASSWORD);
    await page().getByRole('button', { name: 'Sign up' }).click();
    await page().getByText('Your account is ready').waitFor();
    await visit('/');
    await page().getByLabel('New organisation name').fill(organisation);
    await page().getByRole('button', { name: 'Create organisation' }).click();
    await page()
      .getByRole('heading', { name: new RegExp(organisation) })
      .waitFor();
    const orgId = page().url().split('/orgs/')[1];
    await page().getByLabel('New project name').fill(name);
    await page().getByRole('button', { name: 'Create project' }).click();
    const dialog = page().getByRole('dialog', { name: 'Project created' });
    const secretKey = (await dialog.getByTestId('secret-key').textContent()) ?? '';
    await dialog.getByRole('link', { name: new RegExp(`Open ${name}`) }).click();
    await page().getByRole('heading', { name: 'Keys' }).waitFor();
    const projectId = page().url().split('/projects/')[1];
    const publicKey = (await page().getByTestId('public-key').first().textContent()) ?? '';
    return { orgId, projectId, publicKey, secretKey };
  }

  it('sets and tests an OpenAI key that the page never shows again', async () => {
    await step('owner', async () => {
      project = await ownerWithProject(owner, 'Lab', 'assistant');
      await page().getByRole('navigation', { name: 'Project services' }).getByRole('link', { name: 'LLM' }).click();
      await page().getByRole('heading', { name: 'LLM settings' }).waitFor();
      await page().getByText('No vendor key is set yet').waitFor();
      await expectAccessible();
    });
    await step('test-typed-key', async () => {
      await page().getByLabel('OpenAI API key').fill(VENDOR_KEY);
      await page().getByRole('button', { name: 'Test this key' }).click();
      await page()
        .getByText(/OpenAI: Credentials accepted by the vendor/)
        .waitFor();
      // Testing stores nothing.
      await page().getByText('No vendor key is set yet').waitFor();
    });
    await step('save-key-with-keyboard', async () => {
      await page().getByLabel('OpenAI API key').focus();
      await page().keyboard.press('Enter');
      await page().getByText('OpenAI key saved.').waitFor();
      await page().getByRole('cell', { name: 'stored, encrypted' }).waitFor();
      await expect(page().getByLabel('OpenAI API key').inputValue()).resolves.toBe('');
      expect(await page().content()).not.toContain(VENDOR_KEY);
      const kept = await page().evaluate<string>(
        'JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })',
      );
      expect(kept).not.toContain(VENDOR_KEY);
      await page().getByRole('button', { name: 'Test stored OpenAI key' }).click();
      await page()
        .getByText(/OpenAI: Credentials accepted by the vendor/)
        .waitFor();
      await expectAccessible();
      mkdirSync(ARTIFACTS, { recursive: true });
      await page().screenshot({ path: path.join(ARTIFACTS, 'llm-settings.png'), fullPage: true });
    });
  }, 120_000);

  it('keeps what was typed when limits or fallbacks are refused, and saves them once right', async () => {
    await step('limits', async () => {
      const limits = page().getByRole('form', { name: 'Limits' });
      await limits.getByLabel('Monthly budget (USD)').fill('25');
      await limits.getByLabel('Requests per minute').fill('0');
      await limits.getByRole('button', { name: 'Save limits' }).click();
      await limits.locator('.field .error').first().waitFor();
      await expect(limits.getByLabel('Requests per minute').getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(limits.getByLabel('Requests per minute').inputValue()).resolves.toBe('0');
      await expect(limits.getByLabel('Monthly budget (USD)').inputValue()).resolves.toBe('25');
      await expectAccessible();
      await limits.getByLabel('Requests per minute').fill('600');
      await limits.getByRole('button', { name: 'Save limits' }).click();
      await page().getByText('Limits saved.').waitFor();
    });
    await step('fallbacks', async () => {
      const fallbacks = page().getByLabel('Fallback models, one per line, in order');
      await fallbacks.fill('gpt-4o\nno-such-model');
      await page().getByRole('button', { name: 'Save fallbacks' }).click();
      await page().getByRole('form', { name: 'Default fallbacks' }).locator('.field .error').waitFor();
      await expect(fallbacks.inputValue()).resolves.toBe('gpt-4o\nno-such-model');
      await fallbacks.fill('gpt-4o');
      await page().getByRole('button', { name: 'Save fallbacks' }).click();
      await page().getByText('Fallbacks saved.').waitFor();
    });
    await step('settings-stored', async () => {
      await page().reload();
      await page().getByRole('heading', { name: 'LLM settings' }).waitFor();
      const limits = page().getByRole('form', { name: 'Limits' });
      await expect(limits.getByLabel('Monthly budget (USD)').inputValue()).resolves.toBe('25');
      await expect(limits.getByLabel('Requests per minute').inputValue()).resolves.toBe('600');
      await expect(limits.getByLabel('Tokens per minute').inputValue()).resolves.toBe('');
      await expect(page().getByLabel('Fallback models, one per line, in order').inputValue()).resolves.toBe('gpt-4o');
    });
  }, 90_000);

  it('shows completions made with the project keys in the usage charts and the logs, with filters and pages', async () => {
    await step('completions', async () => {
      const client = createClient({
        urls: { llm: journey.platform.serviceUrl('llm') },
        keys: {
          apiKey: project.publicKey,
          secretKey: project.secretKey,
          tenantId: project.orgId,
          projectId: project.projectId,
        },
      });
      // One page of logs and a bit: 26 of one model, 1 of another.
      const models = [...Array.from({ length: 26 }, () => 'gpt-4o-mini'), 'gpt-4o'];
      for (const [i, model] of models.entries()) {
        const answer = await client.llm.postChatCompletions({
          body: { model, messages: [{ role: 'user', content: `question ${i}` }] },
        });
        expect(answer.response.status).toBe(200);
      }
      expect(openai.requests.filter((request) => request.path.endsWith('/chat/completions'))).toHaveLength(27);
    });
    await step('usage', async () => {
      await visit(llmPage());
      await page().getByRole('navigation', { name: 'LLM pages' }).getByRole('link', { name: 'Usage' }).click();
      await page().getByRole('heading', { name: 'LLM usage' }).waitFor();
      const perModel = page().getByTestId('usage-per-model');
      // The stand-in counts 8 tokens a completion.
      await perModel.getByRole('row', { name: /gpt-4o-mini\s+26\s+208\s+\$/ }).waitFor();
      await perModel.getByRole('row', { name: /gpt-4o\s+1\s+8\s+\$/ }).waitFor();
      for (const metric of ['requests', 'totalTokens', 'costUsd'])
        await page().getByTestId(`chart-${metric}`).locator('canvas').first().waitFor();
      await expectAccessible();
      mkdirSync(ARTIFACTS, { recursive: true });
      await page().screenshot({ path: path.join(ARTIFACTS, 'llm-usage.png'), fullPage: true });
      // A range before any request: nothing to draw, said in words.
      await page().getByLabel('From (UTC day)').fill('2020-01-01');
      await page().getByLabel('To (UTC day)').fill('2020-01-31');
      await page().getByRole('button', { name: 'Show usage' }).click();
      await page().getByText('No request from 2020-01-01 to 2020-01-31.').waitFor();
      // A range the service refuses (over 366 days): the error in words, the days typed kept.
      await page().getByLabel('From (UTC day)').fill('2018-01-01');
      await page().getByRole('button', { name: 'Show usage' }).click();
      await page().getByRole('alert').first().waitFor();
      await expect(page().getByLabel('From (UTC day)').inputValue()).resolves.toBe('2018-01-01');
      await page().getByRole('button', { name: 'Last 7 days' }).click();
      await perModel.getByRole('row', { name: /gpt-4o-mini/ }).waitFor();
    });
    await step('usage-on-a-phone', async () => {
      await page().setViewportSize({ width: 390, height: 844 });
      await page().getByTestId('chart-requests').locator('canvas').first().waitFor();
      // The charts follow their boxes a frame after the viewport narrows: wait for it, then nothing is wider than the phone.
      await page().waitForFunction(
        `[...document.querySelectorAll('[data-testid^="chart-"] canvas')].every((canvas) => canvas.getBoundingClientRect().width <= window.innerWidth)`,
        undefined,
        { timeout: 10_000 },
      );
      const overflow = await page().evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
      expect(overflow).toBeLessThanOrEqual(0);
      await page().screenshot({ path: path.join(ARTIFACTS, 'llm-usage-phone.png'), fullPage: true });
      await page().setViewportSize({ width: 1280, height: 800 });
    });
    await step('logs', async () => {
      await page().getByRole('navigation', { name: 'LLM pages' }).getByRole('link', { name: 'Logs' }).click();
      await page().getByRole('heading', { name: 'LLM logs' }).waitFor();
      await page().getByText('Requests 1–25 of 27').waitFor();
      const rows = page().getByTestId('llm-logs').locator('tbody tr');
      await expect(rows.count()).resolves.toBe(25);
      await expectAccessible();
      await page().getByRole('button', { name: 'Next page' }).click();
      await page().getByText('Requests 26–27 of 27').waitFor();
      await expect(page().getByRole('button', { name: 'Next page' }).isDisabled()).resolves.toBe(true);

      await page().getByLabel('Model').fill('gpt-4o');
      await page().getByRole('button', { name: 'Apply filters' }).click();
      await page().getByText('Requests 1–1 of 1').waitFor();
      await page()
        .getByTestId('llm-logs')
        .getByRole('cell', { name: /^gpt-4o openai$/ })
        .waitFor();

      await page().getByLabel('Model').fill('');
      await page().getByLabel('Status').selectOption('error');
      await page().getByRole('button', { name: 'Apply filters' }).click();
      await page().getByText('No request matches.').waitFor();

      const today = new Date().toISOString().slice(0, 10);
      await page().getByLabel('Status').selectOption('success');
      await page().getByLabel('From (UTC day)').fill(today);
      await page().getByLabel('To (UTC day)').fill(today);
      await page().getByRole('button', { name: 'Apply filters' }).click();
      await page().getByText('Requests 1–25 of 27').waitFor();
      await page().getByLabel('To (UTC day)').fill('2020-01-01');
      await page().getByRole('button', { name: 'Apply filters' }).click();
      await page().getByRole('alert').first().waitFor();
      await expect(page().getByLabel('To (UTC day)').inputValue()).resolves.toBe('2020-01-01');
      await page().getByRole('button', { name: 'Clear filters' }).click();
      await page().getByText('Requests 1–25 of 27').waitFor();
      await expectAccessible();
      await page().screenshot({ path: path.join(ARTIFACTS, 'llm-logs.png') });
    });
    await step('every-page-on-a-phone', async () => {
      await page().setViewportSize({ width: 390, height: 844 });
      for (const [sub, ready] of [
        ['', 'Save key'],
        ['/usage', 'Show usage'],
        ['/logs', 'Apply filters'],
      ]) {
        await visit(llmPage(sub));
        await page().getByRole('button', { name: ready }).waitFor();
        await page().getByRole('table').first().waitFor();
        const overflow = await page().evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
        expect({ sub, overflow }).toEqual({ sub, overflow: 0 });
      }
      await page().setViewportSize({ width: 1280, height: 800 });
    });
  }, 180_000);

  it('shows a viewer the LLM pages without a button that would write', async () => {
    await step('invite', async () => {
      await visit(`/orgs/${project.orgId}`);
      await page().getByLabel('Invite by e-mail').fill(viewer);
      await page().getByLabel('Role', { exact: true }).selectOption('viewer');
      await page().getByRole('button', { name: 'Send invitation' }).click();
      await page().getByText('Invitation sent.').waitFor();
      await journey.signOut();
      await journey.acceptInvitationAs(viewer);
      await page().getByRole('heading', { name: /Lab/ }).waitFor();
    });
    await step('viewer-settings', async () => {
      await visit(llmPage());
      await page().getByRole('heading', { name: 'LLM settings' }).waitFor();
      await page().getByRole('cell', { name: 'stored, encrypted' }).waitFor();
      await page().getByRole('heading', { name: 'Default fallbacks' }).waitFor();
      await page().getByRole('listitem').filter({ hasText: 'gpt-4o' }).waitFor();
      await page().getByTestId('llm-spend').getByText('600').waitFor();
      await page().getByTestId('llm-spend').getByText('$25.00').waitFor();
      await expectAccessible();
      await page().screenshot({ path: path.join(ARTIFACTS, 'llm-settings-viewer.png'), fullPage: true });
      expect(
        await page()
          .getByRole('button', { name: /Save|Test/ })
          .count(),
      ).toBe(0);
      expect(await page().locator('form input[type=password], textarea').count()).toBe(0);
    });
    await step('viewer-reads', async () => {
      await visit(llmPage('/usage'));
      await page()
        .getByTestId('usage-per-model')
        .getByRole('row', { name: /gpt-4o-mini/ })
        .waitFor();
      await expectAccessible();
      await visit(llmPage('/logs'));
      await page().getByText('Requests 1–25 of 27').waitFor();
      await expectAccessible();
      expect(
        await page()
          .getByRole('button', { name: /Save|Test|Delete/ })
          .count(),
      ).toBe(0);
    });
  }, 150_000);
});
