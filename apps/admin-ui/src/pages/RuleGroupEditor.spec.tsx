import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, json, paramsOf, renderPage, text } from '../test-support';
import { RuleGroupEditor } from './RuleGroupEditor';

const group = (expr: string) =>
  `name: g\nrules:\n  - alert: Boom\n    expr: ${expr}\n    for: 1m\n`;

describe('RuleGroupEditor', () => {
  it("checks each expression with the server's parser as you type, at the expression's line", async () => {
    const calls = fakeApi({
      'GET /loki/api/v1/format_query': (call) =>
        paramsOf(call).get('query')!.endsWith('>')
          ? json(
              { status: 'invalid-query', error: 'parse error at line 1, col 30: syntax error' },
              400,
            )
          : json({ status: 'success', data: 'ok' }),
    });
    renderPage(
      <RuleGroupEditor tenant="team-a" namespace="ns" initial={group('up')} onDone={() => {}} />,
    );
    const editor = screen.getByLabelText('Rule group YAML');
    fireEvent.change(editor, { target: { value: group('sum(rate({app="x"}[1m])) >') } });
    expect(
      (await screen.findByText(/^Line 4: parse error at col 30/, {}, { timeout: 10_000 }))
        .textContent,
    ).toBe('Line 4: parse error at col 30 of the expression: syntax error');
    expect(editor.getAttribute('aria-invalid')).toBe('true');
    expect((screen.getByRole('button', { name: 'Save group' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect(calls.at(-1)!.url).toContain('format_query');

    fireEvent.change(editor, { target: { value: group('sum(rate({app="x"}[1m])) > 1') } });
    await waitFor(() => expect(screen.queryByText(/^Line 4:/)).toBeNull(), { timeout: 10_000 });
  });

  it("shows the server's refusal on save at the rule it names", async () => {
    fakeApi({
      'GET /loki/api/v1/format_query': () => json({ status: 'success', data: 'ok' }),
      'POST /loki/api/v1/rules/ns': () =>
        text("could not parse expression for alert 'Boom' in group 'g': bad things\n", 400),
    });
    renderPage(
      <RuleGroupEditor
        tenant="team-a"
        namespace="ns"
        initial={group('up > 1')}
        onDone={() => {}}
      />,
    );
    await waitFor(
      () =>
        expect(
          (screen.getByRole('button', { name: 'Save group' }) as HTMLButtonElement).disabled,
        ).toBe(false),
      { timeout: 10_000 },
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save group' }));
    expect((await screen.findByText(/^Line 4: server:/)).textContent).toBe(
      "Line 4: server: could not parse expression for alert 'Boom' in group 'g': bad things",
    );
  });
});
