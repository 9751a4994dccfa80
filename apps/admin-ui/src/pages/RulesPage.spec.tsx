import type { RulesResponse } from '@logsvc/api/browser';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, json, renderPage, text, uiFeatures } from '../test-support';
import { RulesPage } from './RulesPage';

const stored = [
  'web:',
  '  - name: errors',
  '    interval: 1m',
  '    rules:',
  '      - alert: WebErrors',
  '        expr: sum(rate({app="web"} |= "error" [1m])) > 1',
  '        for: 5m',
  '      - record: web:errors:rate1m',
  '        expr: sum(rate({app="web"} |= "error" [1m]))',
  '',
].join('\n');

const live: RulesResponse = {
  status: 'success',
  data: {
    groups: [
      {
        name: 'errors',
        file: 'web',
        interval: 60,
        limit: 0,
        lastEvaluation: '2026-01-01T01:00:00Z',
        evaluationTime: 0.004,
        rules: [
          {
            type: 'alerting',
            name: 'WebErrors',
            query: 'sum(rate({app="web"} |= "error" [1m])) > 1',
            duration: 300,
            labels: { severity: 'page' },
            annotations: { summary: 'web is failing' },
            state: 'firing',
            health: 'ok',
            lastError: '',
            lastEvaluation: '2026-01-01T01:00:00Z',
            evaluationTime: 0.0032,
            alerts: [
              {
                labels: { severity: 'page', alertname: 'WebErrors' },
                annotations: { summary: 'web is failing' },
                state: 'firing',
                activeAt: '2026-01-01T00:50:00Z',
                value: '1.6e+01',
              },
            ],
          },
          {
            type: 'recording',
            name: 'web:errors:rate1m',
            query: 'sum(rate({app="web"} |= "error" [1m]))',
            labels: {},
            health: 'err',
            lastError: 'too many series',
            lastEvaluation: '0001-01-01T00:00:00Z',
            evaluationTime: 0,
          },
        ],
      },
    ],
  },
  errorType: '',
  error: '',
} as RulesResponse;

describe('RulesPage', () => {
  it("shows each rule's for, labels, annotations, health, evaluation and active alerts", async () => {
    const calls = fakeApi({
      'GET /ui/api/features': () => json(uiFeatures()),
      'GET /ui/api/rules': () => text(stored),
      'GET /prometheus/api/v1/rules': () => json(live),
    });
    renderPage(<RulesPage />);
    const alert = (await screen.findByRole('rowheader', { name: /^WebErrors/ })).closest('tr')!;
    await within(alert).findByText('ok');
    const cells = [...alert.querySelectorAll('td')].map((c) => c.textContent);
    expect(cells[0]).toContain('for: 5m 0s');
    expect(cells[0]).toContain('labels: severity=page');
    expect(cells[0]).toContain('annotations: summary=web is failing');
    expect(cells[1]).toBe('firing');
    expect(cells[3]).toContain('took 3.2 ms');
    // Active since the pending start; firing once `for` had passed; the value as a number.
    expect(cells[5]).toContain(
      `firing, active since ${new Date('2026-01-01T00:50:00Z').toLocaleString()}, firing since about ${new Date('2026-01-01T00:55:00Z').toLocaleString()}`,
    );
    expect(cells[5]).toContain('value 16');
    expect(cells[5]).not.toContain('e+01');

    const record = screen.getByRole('rowheader', { name: /^web:errors:rate1m/ }).closest('tr')!;
    expect(record.className).toBe('alert');
    expect(within(record).getByText('never')).toBeTruthy();
    expect(within(record).getByText('too many series')).toBeTruthy();
    const rulesCalls = calls.filter((c) => c.url !== '/ui/api/features');
    expect(rulesCalls.every((c) => c.headers['X-Scope-OrgID'] === 'team-a')).toBe(true);
  });

  it('says when the tenant has no rule groups', async () => {
    fakeApi({
      'GET /ui/api/features': () => json(uiFeatures()),
      'GET /ui/api/rules': () => text('{}\n'),
      'GET /prometheus/api/v1/rules': () =>
        json({ status: 'success', data: { groups: [] }, errorType: '', error: '' }),
    });
    renderPage(<RulesPage />);
    await screen.findByText('No rule groups for tenant team-a.');
  });

  it('says when this process runs no ruler, and asks no rules API', async () => {
    const calls = fakeApi({ 'GET /ui/api/features': () => json(uiFeatures({ rules: false })) });
    renderPage(<RulesPage />);
    expect((await screen.findByRole('note')).textContent).toContain('runs no ruler');
    expect(screen.queryByRole('button', { name: 'New rule group' })).toBeNull();
    expect(calls.map((c) => c.url)).toEqual(['/ui/api/features']);
  });
});
