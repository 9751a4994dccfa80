import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError } from '../api/http';
import { queryProblem } from '../api/queries';
import { saveGroup } from '../api/rules';
import { YamlEditor } from '../components/YamlEditor';
import {
  type LineProblem,
  readRuleGroup,
  serverErrorLine,
  withoutQueryLine,
} from '../lib/rule-yaml';
import { rereadAfterChange } from '../api/reread';

/** How long typing must pause before the expressions are sent to the server's parser. */
const VALIDATE_DELAY_MS = 400;

export const NEW_GROUP_YAML = `name: my-group
interval: 1m
rules:
  - alert: HighErrorRate
    expr: sum(rate({app="example"} |= "error" [5m])) > 1
    for: 5m
    labels:
      severity: warning
    annotations:
      summary: Many errors
`;

/** Problems of the YAML and of each rule's LogQL, checked by the server's parser as you type. */
function useProblems(text: string): LineProblem[] {
  const [problems, setProblems] = useState<LineProblem[]>([]);
  useEffect(() => {
    const read = readRuleGroup(text);
    setProblems(read.problems);
    if (read.problems.length > 0) return;
    const abort = new AbortController();
    const timer = setTimeout(async () => {
      const found: LineProblem[] = [];
      for (const { line, expr } of read.expressions) {
        try {
          const problem = await queryProblem(expr, abort.signal);
          if (problem) found.push({ line, message: withoutQueryLine(problem) });
        } catch {
          return; // Aborted, or the server is unreachable: the save will tell.
        }
      }
      if (!abort.signal.aborted) setProblems(found);
    }, VALIDATE_DELAY_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [text]);
  return problems;
}

/** Create or replace one rule group of a namespace. */
export function RuleGroupEditor(props: {
  tenant: string;
  namespace?: string;
  initial: string;
  onDone(): void;
}) {
  const client = useQueryClient();
  const [namespace, setNamespace] = useState(props.namespace ?? '');
  const [text, setText] = useState(props.initial);
  const problems = useProblems(text);
  const save = useMutation({
    mutationFn: () => saveGroup(props.tenant, namespace, text),
    onSuccess: () => {
      void rereadAfterChange(client, ['rules', props.tenant]);
      props.onDone();
    },
  });
  const serverError = save.error instanceof ApiError ? save.error.message : undefined;
  const shown: LineProblem[] = serverError
    ? [
        ...problems,
        {
          line: serverErrorLine(serverError, text),
          message: `server: ${withoutQueryLine(serverError)}`,
        },
      ]
    : problems;
  return (
    <form
      className="card"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <h2>{props.namespace ? `Edit group in ${props.namespace}` : 'New rule group'}</h2>
      <p>
        <label>
          Namespace{' '}
          <input
            value={namespace}
            onChange={(e) => setNamespace(e.target.value)}
            readOnly={!!props.namespace}
            required
          />
        </label>
      </p>
      <YamlEditor
        label="Rule group YAML"
        value={text}
        onChange={(v) => {
          setText(v);
          save.reset();
        }}
        problems={shown}
      />
      {save.error && !serverError && (
        <p className="error" role="alert">
          {String(save.error)}
        </p>
      )}
      <p className="actions">
        <button type="button" onClick={props.onDone}>
          Close
        </button>{' '}
        <button type="submit" disabled={problems.length > 0 || namespace === '' || save.isPending}>
          Save group
        </button>
      </p>
    </form>
  );
}
